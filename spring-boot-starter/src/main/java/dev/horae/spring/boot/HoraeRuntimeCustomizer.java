package dev.horae.spring.boot;

import dev.horae.runtime.HoraeRuntime;

/**
 * Adjusts the runtime builder before the auto-configured runtime is built: a store of your own
 * (instead of {@code horae.data-dir}), a clock and timers, leases, warnings. Every builder setting
 * may be given once, so a customizer must not set what the properties already set
 * ({@code dataDir} when {@code horae.data-dir} is given, {@code model} when a model port or chat
 * model bean exists).
 */
@FunctionalInterface
public interface HoraeRuntimeCustomizer {

  /**
   * Customizes the builder.
   *
   * @param builder the runtime builder
   */
  void customize(HoraeRuntime.Builder builder);
}
