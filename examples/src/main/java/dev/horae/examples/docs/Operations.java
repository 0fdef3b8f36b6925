package dev.horae.examples.docs;

import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.JdbcDispatchQueue;
import dev.horae.gate.runtime.PgWakeSignal;
import dev.horae.micrometer.DispatcherMetrics;
import dev.horae.micrometer.HoraeMetrics;
import dev.horae.micrometer.MeteredSessionStore;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.SessionStore;
import dev.horae.store.FileSessionStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The snippets of {@code docs/operations.md}: a runtime whose figures go to a Micrometer registry,
 * and a runtime whose scheduled actions a durable dispatcher on PostgreSQL performs, with the
 * dispatcher's meters ({@code docs/runtime.md}, "The durable dispatcher").
 */
public final class Operations {

  private Operations() {}

  /**
   * A runtime over the file store in {@code dataDir} with timed flushes and every Horae meter bound
   * to {@code registry}; closing the runtime closes the store and removes the meters' listeners.
   *
   * @param dataDir the data folder
   * @param registry the application's registry
   * @return the runtime
   */
  public static HoraeRuntime metered(Path dataDir, MeterRegistry registry) {
    FileSessionStore file = FileSessionStore.open(dataDir);
    HoraeRuntime horae = HoraeRuntime.builder().store(MeteredSessionStore.wrap(file, registry)).build();
    horae.closeOnShutdown(file);              // a store given with .store(…) is the application's to close
    bind(horae, registry);
    return horae;
  }

  private static void bind(HoraeRuntime horae, MeterRegistry registry) {
    HoraeMetrics metrics = HoraeMetrics.of(horae);
    metrics.bindTo(registry);                 // the application's MeterRegistry
    horae.closeOnShutdown(metrics);           // removes its listeners
  }

  /**
   * A runtime over a shared store whose scheduled actions a durable dispatcher over the {@code
   * gate_} tables performs, on whichever node claims them; the dispatcher is started, metered and
   * closed with the runtime.
   *
   * @param store the shared session store (a JDBC store, say)
   * @param dataSource the PostgreSQL connections of the dispatch tables (migrated)
   * @param clock the wall clock
   * @param wake the node's wake signal on the queue's channel
   * @param registry the application's registry
   * @return the runtime
   */
  public static HoraeRuntime dispatched(SessionStore store, DataSource dataSource, InstantSource clock, PgWakeSignal wake,
      MeterRegistry registry) {
    HoraeRuntime runtime = HoraeRuntime.builder()
        .store(store)
        .clock(clock)
        .dispatchQueue((sessions, flush) -> JdbcDispatchQueue.over(dataSource, "gate_", clock, sessions, flush))
        .build();                                              // SessionDispatchQueue::over for one process
    DurableDispatcher dispatcher = runtime.durableDispatcher() // the runtime's clock, timers and threads
        .wake(wake).build();                                   // a PgWakeSignal across nodes; options, owner
    dispatcherMeters(dispatcher, wake, registry);
    runtime.closeOnShutdown(dispatcher);
    dispatcher.start();
    return runtime;
  }

  /**
   * Binds the meters of a durable dispatcher and of its PostgreSQL wake signal to {@code registry}.
   *
   * @param dispatcher the embedder's dispatcher
   * @param wake its wake signal
   * @param registry the application's registry
   */
  public static void dispatcherMeters(DurableDispatcher dispatcher, PgWakeSignal wake, MeterRegistry registry) {
    DispatcherMetrics.of(dispatcher, Optional.of(wake)).bindTo(registry);   // Optional.empty() without a PgWakeSignal
  }
}
