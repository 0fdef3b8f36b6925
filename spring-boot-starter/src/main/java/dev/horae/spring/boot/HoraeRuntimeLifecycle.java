package dev.horae.spring.boot;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.Registration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Binds a {@link HoraeRuntime} to the application context: at start it publishes unprompted
 * replies as {@link UnpromptedReplyEvent}s and opens every stored session (so an overdue reminder
 * starts its turn at once and a committed scheduled action is performed), and at stop it closes
 * the runtime (agents disposed, sessions flushed, store released). A context that fails before
 * starting still closes the runtime when its beans are destroyed. Closing happens once.
 */
public class HoraeRuntimeLifecycle implements SmartLifecycle, DisposableBean {

  private final HoraeRuntime runtime;
  private final boolean resume;
  private final ApplicationEventPublisher events;
  private @Nullable Registration replies;
  private boolean running;
  private boolean closed;

  /**
   * Creates the lifecycle.
   *
   * @param runtime the runtime it owns
   * @param resume whether stored sessions are opened at start
   * @param events where unprompted replies are published
   */
  public HoraeRuntimeLifecycle(HoraeRuntime runtime, boolean resume, ApplicationEventPublisher events) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.resume = resume;
    this.events = Objects.requireNonNull(events, "events");
  }

  @Override
  public synchronized void start() {
    if (running || closed) {
      return;
    }
    replies = runtime.onUnpromptedReply(outcome -> events.publishEvent(new UnpromptedReplyEvent(outcome)));
    if (resume) {
      List<String> ids = new ArrayList<>(runtime.store().ids());
      ids.sort(null);
      for (String id : ids) {
        var unused = runtime.openAgent(id);
      }
    }
    running = true;
  }

  @Override
  public synchronized void stop() {
    running = false;
    close();
  }

  @Override
  public synchronized boolean isRunning() {
    return running;
  }

  @Override
  public synchronized void destroy() {
    close();
  }

  private void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (replies != null) {
      replies.close();
    }
    runtime.close();
  }
}
