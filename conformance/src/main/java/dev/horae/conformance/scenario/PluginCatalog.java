package dev.horae.conformance.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.invariant.Companions;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The plugins a scenario may install by name, each built from the scenario's raw configuration
 * object.
 */
public final class PluginCatalog {

  /** The name of the invariant companions (Schedule, time-context, gate, jobs) as one plugin. */
  public static final String INVARIANTS = "invariants";

  private final Map<String, Function<JsonNode, Plugin>> factories = new LinkedHashMap<>();

  /** Creates an empty catalogue. */
  public PluginCatalog() {}

  /**
   * The Horae plugins available in this build: {@code time-context}, {@code tool-schedule} (no
   * configuration), {@code tool-jobs} and {@code invariants} (every invariant companion,
   * registered on the host's invariant service). Each configuration is read with its type's
   * {@code fromJson} and handed to the plugin's {@code create}.
   *
   * @return the catalogue
   */
  public static PluginCatalog standard() {
    return new PluginCatalog()
        .register(TimeContextPlugin.NAME, config -> loading(() -> TimeContextPlugin.create(TimeContextConfig.fromJson(config))))
        .register(SchedulePlugin.NAME, config -> SchedulePlugin.create())
        .register(JobsController.NAME, config -> loading(() -> JobsController.create(JobsControllerConfig.fromJson(config))))
        .register(INVARIANTS, config -> new Plugin() {
          @Override
          public String name() {
            return INVARIANTS;
          }

          @Override
          public Installation install(Host host) {
            Registration companions = Companions.registerAll(host);
            return () -> {
              companions.close();
              return CompletableFuture.completedFuture(null);
            };
          }
        });
  }

  /**
   * Reading a plugin's raw configuration is part of loading it (time-context spec §3.1, jobs spec
   * §3.2: the component "fails to load"), so a configuration error surfaces as the load failure a
   * host reports, {@link CompositionException}, with the configuration's own message and the
   * original error as its cause.
   */
  private static Plugin loading(Supplier<Plugin> factory) {
    try {
      return factory.get();
    } catch (InvalidConfigException | JobsException e) {
      CompositionException failure = new CompositionException(String.valueOf(e.getMessage()));
      failure.initCause(e);
      throw failure;
    }
  }

  /**
   * Adds (or replaces) a plugin factory.
   *
   * @param name the name scenarios use
   * @param factory builds the plugin from its raw configuration object
   * @return this catalogue
   */
  public PluginCatalog register(String name, Function<JsonNode, Plugin> factory) {
    factories.put(name, factory);
    return this;
  }

  /**
   * Builds a plugin.
   *
   * @param name the plugin name
   * @param config its raw configuration
   * @return the plugin, or empty when the name is unknown
   */
  public Optional<Plugin> create(String name, JsonNode config) {
    Function<JsonNode, Plugin> f = factories.get(name);
    return f == null ? Optional.empty() : Optional.of(f.apply(config));
  }

  /**
   * The known names.
   *
   * @return the names, in registration order
   */
  public Set<String> names() {
    return factories.keySet();
  }
}
