package dev.horae.spring.boot;

import dev.horae.micrometer.HoraeMetrics;
import dev.horae.runtime.HoraeRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * {@link HoraeMetrics} bound to the application's registry once every singleton exists. It is not
 * itself a {@code MeterBinder} on purpose: Boot's actuator binds every {@code MeterBinder} bean to
 * each registry it knows, and {@link HoraeMetrics} refuses a second binding.
 */
public final class HoraeMetricsBinding implements SmartInitializingSingleton, AutoCloseable {

  private final HoraeRuntime runtime;
  private final ObjectProvider<MeterRegistry> registries;
  private volatile @Nullable HoraeMetrics metrics;

  HoraeMetricsBinding(HoraeRuntime runtime, ObjectProvider<MeterRegistry> registries) {
    this.runtime = runtime;
    this.registries = registries;
  }

  /** Binds the meters to the unique (or primary) registry, when there is one. */
  @Override
  public synchronized void afterSingletonsInstantiated() {
    MeterRegistry registry = registries.getIfUnique();
    if (registry == null || metrics != null) {
      return;
    }
    HoraeMetrics bound = HoraeMetrics.of(runtime);
    bound.bindTo(registry);
    metrics = bound;
  }

  /**
   * The bound meters.
   *
   * @return them, or empty when the application has no single registry
   */
  public Optional<HoraeMetrics> metrics() {
    return Optional.ofNullable(metrics);
  }

  /** Removes the meters' listeners from the runtime; the meters stay in the registry. */
  @Override
  public void close() {
    HoraeMetrics m = metrics;
    if (m != null) {
      m.close();
    }
  }
}
