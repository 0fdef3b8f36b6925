package dev.horae.micrometer;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A session store that times every flush of the store it wraps: {@value HoraeMetrics#STORE_FLUSH}
 * with tag {@code outcome} {@code success} or {@code failure}, from the call to {@code persist}
 * until its stage completes, on the registry's monotonic clock. A persist that throws instead of
 * returning a stage is timed as a failure and rethrown. Reads pass through untimed.
 *
 * <pre>{@code
 * FileSessionStore file = FileSessionStore.open(dataDir);
 * HoraeRuntime horae = HoraeRuntime.builder().store(MeteredSessionStore.wrap(file, registry)).build();
 * }</pre>
 *
 * <p>The runtime then sees this store ({@code horae.store()}); {@link HoraeMetrics} finds the
 * file store inside it through {@link #delegate()} to count its fsyncs.
 */
public final class MeteredSessionStore implements SessionStore {

  private final SessionStore delegate;
  private final MeterRegistry registry;
  private final Timer success;
  private final Timer failure;

  private MeteredSessionStore(SessionStore delegate, MeterRegistry registry) {
    this.delegate = delegate;
    this.registry = registry;
    this.success = flushTimer(registry, "success");
    this.failure = flushTimer(registry, "failure");
  }

  /**
   * Wraps a store.
   *
   * @param store the store whose flushes are timed
   * @param registry where the timer lives
   * @return the timed store
   */
  public static MeteredSessionStore wrap(SessionStore store, MeterRegistry registry) {
    return new MeteredSessionStore(Objects.requireNonNull(store, "store"), Objects.requireNonNull(registry, "registry"));
  }

  static Timer flushTimer(MeterRegistry registry, String outcome) {
    return Timer.builder(HoraeMetrics.STORE_FLUSH)
        .description("Session store flushes, from persist until durable (or failed)")
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry);
  }

  /**
   * The wrapped store.
   *
   * @return the store given to {@link #wrap}
   */
  public SessionStore delegate() {
    return delegate;
  }

  @Override
  public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
    long start = registry.config().clock().monotonicTime();
    CompletionStage<Void> stage;
    try {
      stage = delegate.persist(header, log);
    } catch (RuntimeException e) {
      record(failure, start);
      throw e;
    }
    return stage.whenComplete((v, e) -> record(e == null ? success : failure, start));
  }

  private void record(Timer timer, long start) {
    timer.record(registry.config().clock().monotonicTime() - start, TimeUnit.NANOSECONDS);
  }

  @Override
  public Optional<StoredSession> load(String id) {
    return delegate.load(id);
  }

  @Override
  public Set<String> ids() {
    return delegate.ids();
  }

  /**
   * Asks the wrapped store (not timed).
   *
   * @param id the session id
   * @return true when it is stored
   */
  @Override
  public boolean contains(String id) {
    return delegate.contains(id);
  }

  @Override
  public String toString() {
    return "timed " + delegate;
  }
}
