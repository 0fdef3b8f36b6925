package dev.horae.examples.docs;

import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.PgWakeSignal;
import dev.horae.micrometer.DispatcherMetrics;
import dev.horae.micrometer.HoraeMetrics;
import dev.horae.micrometer.MeteredSessionStore;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.store.FileSessionStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The snippets of {@code docs/operations.md}: a runtime whose figures go to a Micrometer registry,
 * and the meters of a gate-runtime embedder's own durable dispatcher.
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
