package dev.horae.micrometer;

import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.PgWakeSignal;
import dev.horae.spi.Registration;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Binds what one {@link DurableDispatcher} does with its claims (gate specification §12.5) to a
 * Micrometer registry: claims taken, recovery claims among them, lease renewals by outcome and
 * Runs ended {@code indeterminate} because their retry budget was spent; with a {@link
 * PgWakeSignal}, its connects and notifications too. For gate-runtime embedders: a {@code
 * HoraeRuntime}'s own due-sessions worker is covered by {@link HoraeMetrics}. Every meter carries
 * {@code dispatcher=durable}; the table is in {@code docs/operations.md}.
 *
 * <pre>{@code
 * DispatcherMetrics metrics = DispatcherMetrics.of(dispatcher, Optional.of(wake));
 * metrics.bindTo(registry);
 * }</pre>
 *
 * <p>Counters count from {@link #bindTo} on; {@link #close()} removes the listener.
 */
public final class DispatcherMetrics implements MeterBinder, AutoCloseable {

  /** Counter: recovery claims, taken on a Run whose previous claim's lease had lapsed. */
  public static final String RECOVERIES = "horae.dispatcher.recoveries";
  /** Counter: renewals of held claims, by {@code outcome} ({@code renewed}, {@code superseded}, {@code failed}). */
  public static final String RENEWALS = "horae.dispatcher.renewals";
  /** Counter: Runs ended {@code indeterminate} because their retry budget was spent (gate specification §12.5.5). */
  public static final String INDETERMINATE = "horae.dispatcher.indeterminate";
  /** Function counter: connections (and {@code LISTEN}s) of the PostgreSQL wake listener. */
  public static final String WAKE_CONNECTS = "horae.dispatcher.wake.connects";
  /** Function counter: wake notifications the PostgreSQL listener received. */
  public static final String WAKE_NOTIFICATIONS = "horae.dispatcher.wake.notifications";

  private static final String DISPATCHER = "dispatcher";
  private static final String DURABLE = "durable";

  private final DurableDispatcher dispatcher;
  private final Optional<PgWakeSignal> wake;
  private @Nullable Registration listening;

  private DispatcherMetrics(DurableDispatcher dispatcher, Optional<PgWakeSignal> wake) {
    this.dispatcher = dispatcher;
    this.wake = wake;
  }

  /**
   * The meters of a dispatcher; nothing is registered before {@link #bindTo}.
   *
   * @param dispatcher the dispatcher
   * @param wake its PostgreSQL wake signal, when it has one
   * @return the binder
   */
  public static DispatcherMetrics of(DurableDispatcher dispatcher, Optional<PgWakeSignal> wake) {
    return new DispatcherMetrics(Objects.requireNonNull(dispatcher, "dispatcher"), Objects.requireNonNull(wake, "wake"));
  }

  /**
   * Registers the meters and the dispatcher listener. Call once.
   *
   * @param registry the application's registry
   * @throws IllegalStateException when already bound
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    if (listening != null) {
      throw new IllegalStateException("these dispatcher metrics are already bound to a registry");
    }
    Counter claims = Counter.builder(HoraeMetrics.DISPATCHER_CLAIMS).tag(DISPATCHER, DURABLE)
        .description("Claims a dispatcher took").register(registry);
    Counter recoveries = Counter.builder(RECOVERIES).tag(DISPATCHER, DURABLE)
        .description("Recovery claims: the previous claim's lease had lapsed").register(registry);
    Counter renewed = renewals(registry, "renewed");
    Counter superseded = renewals(registry, "superseded");
    Counter failed = renewals(registry, "failed");
    Counter indeterminate = Counter.builder(INDETERMINATE).tag(DISPATCHER, DURABLE)
        .description("Runs ended indeterminate: their retry budget was spent").register(registry);
    wake.ifPresent(w -> {
      FunctionCounter.builder(WAKE_CONNECTS, w, PgWakeSignal::connects).tag(DISPATCHER, DURABLE)
          .description("Connections of the PostgreSQL wake listener; more than one means it reconnected")
          .register(registry);
      FunctionCounter.builder(WAKE_NOTIFICATIONS, w, PgWakeSignal::notifications).tag(DISPATCHER, DURABLE)
          .description("Wake notifications the PostgreSQL listener received").register(registry);
    });
    listening = dispatcher.onActivity((activity, claim) -> {
      switch (activity) {
        case CLAIMED -> {
          claims.increment();
          if (claim.recovery()) {
            recoveries.increment();
          }
        }
        case RENEWED -> renewed.increment();
        case RENEWAL_SUPERSEDED -> superseded.increment();
        case RENEWAL_FAILED -> failed.increment();
        case ENDED_INDETERMINATE -> indeterminate.increment();
      }
    });
  }

  private static Counter renewals(MeterRegistry registry, String outcome) {
    return Counter.builder(RENEWALS).tag(DISPATCHER, DURABLE).tag("outcome", outcome)
        .description("Renewals of held dispatch claims").register(registry);
  }

  /** Removes the dispatcher listener; the meters stay in the registry. */
  @Override
  public synchronized void close() {
    Registration r = listening;
    if (r != null) {
      r.close();
    }
  }
}
