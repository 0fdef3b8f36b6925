package dev.horae.timecontext.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.TimeContextConfig;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The time-context plugin (spec §2): validates its configuration at load and registers one
 * prepended pre-step listener that adds a durable time reading to each eligible entered step.
 *
 * <p>Default compositions do not mount it; a host opts in by installing it.
 */
public final class TimeContextPlugin implements Plugin {

  /** The component name, also the {@code plugin} member of a reading's source. */
  public static final String NAME = "time-context";

  private final JsonNode config;

  private TimeContextPlugin(JsonNode config) {
    this.config = config.deepCopy();
  }

  /**
   * A plugin with the given raw configuration {@code {timeZone?, refreshIntervalMs?,
   * clientZoneGuidance?}}; it is validated at install.
   *
   * @param config the raw configuration object
   * @return the plugin
   */
  public static TimeContextPlugin withConfig(JsonNode config) {
    return new TimeContextPlugin(config);
  }

  /**
   * A plugin with the default configuration: the process zone, a reading for every eligible step,
   * the two-line form.
   *
   * @return the plugin
   */
  public static TimeContextPlugin withDefaults() {
    return new TimeContextPlugin(Json.mapper().createObjectNode());
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Validates the configuration, reads the process zone once when no {@code timeZone} is set, and
   * registers the prepended pre-step listener. Closing the installation removes the listener; a
   * pre-step that completes after that gets no reading.
   *
   * @param host the host
   * @return the installation
   * @throws CompositionException with the exact spec message when the configuration is invalid
   */
  @Override
  public Installation install(Host host) {
    TimeContextConfig normalized;
    try {
      normalized = TimeContextConfig.validate(config, () -> readProcessZone(host));
    } catch (InvalidConfigException e) {
      CompositionException failure = new CompositionException(String.valueOf(e.getMessage()));
      failure.initCause(e);
      throw failure;
    }
    PreStepReading listener = new PreStepReading(normalized, host.wallClock(), host.ids());
    ScopeHandle handle = host.newPluginScope();
    try {
      handle.scope().own(host.agents().onPreStep(listener, true));
      handle.scope().own(listener::close);
    } catch (RuntimeException e) {
      handle.dispose();
      throw e;
    }
    return () -> {
      // stop adding readings before the registration goes, so a pre-step already past next()
      // cannot record one after close returned
      listener.close();
      return handle.dispose();
    };
  }

  /** Reads the host's process zone exactly once; a supplier failure counts as unresolvable. */
  private static Optional<String> readProcessZone(Host host) {
    ZoneId zone;
    try {
      zone = host.processZone().get();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    return TimeContextConfig.processZoneName(zone);
  }
}
