package dev.horae.examples.docs;

import dev.horae.micrometer.HoraeMetrics;
import dev.horae.micrometer.MeteredSessionStore;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.store.FileSessionStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;

/** The snippets of {@code docs/operations.md}: a runtime whose figures go to a Micrometer registry. */
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
}
