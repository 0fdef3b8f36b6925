package dev.horae.jobs.registry.internal;

import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobsChangedObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * The registrations filed into one scope (or the global layer), in registration order. Guarded by
 * the registry lock; entries are identity objects so that duplicates stay independent.
 */
public final class Layer {

  /** A controller attachment; identity matters, so duplicates stay independent. */
  public static final class Controller {
    private final String name;
    private final JobReporter reporter;

    /**
     * Creates the entry.
     *
     * @param name diagnostic name
     * @param reporter the reporter
     */
    public Controller(String name, JobReporter reporter) {
      this.name = name;
      this.reporter = reporter;
    }

    /**
     * Returns the diagnostic name.
     *
     * @return the name
     */
    public String name() {
      return name;
    }

    /**
     * Returns the reporter.
     *
     * @return the reporter
     */
    public JobReporter reporter() {
      return reporter;
    }
  }

  /** A plain completion listener entry. */
  public static final class Listener {
    private final JobDoneListener listener;

    /**
     * Creates the entry.
     *
     * @param listener the listener
     */
    public Listener(JobDoneListener listener) {
      this.listener = listener;
    }

    /**
     * Returns the listener.
     *
     * @return the listener
     */
    public JobDoneListener listener() {
      return listener;
    }
  }

  /** A change observer entry. */
  public static final class Observer {
    private final JobsChangedObserver observer;

    /**
     * Creates the entry.
     *
     * @param observer the observer
     */
    public Observer(JobsChangedObserver observer) {
      this.observer = observer;
    }

    /**
     * Returns the observer.
     *
     * @return the observer
     */
    public JobsChangedObserver observer() {
      return observer;
    }
  }

  /** Controllers in registration order. */
  public final List<Controller> controllers = new ArrayList<>();

  /** Completion listeners in registration order. */
  public final List<Listener> listeners = new ArrayList<>();

  /** Change observers in registration order. */
  public final List<Observer> observers = new ArrayList<>();

  /**
   * Says whether the layer holds nothing and can be dropped.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return controllers.isEmpty() && listeners.isEmpty() && observers.isEmpty();
  }
}
