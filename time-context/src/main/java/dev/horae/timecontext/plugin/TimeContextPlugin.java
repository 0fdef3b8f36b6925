package dev.horae.timecontext.plugin;

import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.TimeContextConfig;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * The time-context plugin (spec §2): registers one prepended pre-step listener that adds a durable
 * time reading to each eligible entered step.
 *
 * <p>Default compositions do not mount it; a host opts in by installing {@link #create()} or
 * {@link #create(TimeContextConfig)}. The configuration is validated when it is built; at load the
 * plugin only fixes the fallback zone (spec §3.1).
 */
public final class TimeContextPlugin implements Plugin {

  /** The component name, also the {@code plugin} member of a reading's source. */
  public static final String NAME = "time-context";

  private final TimeContextConfig config;

  private TimeContextPlugin(TimeContextConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * The plugin with the default configuration: the process zone, a reading for every eligible
   * step, the two-line form.
   *
   * @return the plugin
   */
  public static TimeContextPlugin create() {
    return new TimeContextPlugin(TimeContextConfig.defaults());
  }

  /**
   * The plugin with a configuration, typed ({@link TimeContextConfig#builder()}) or read from a
   * configuration file ({@link TimeContextConfig#fromJson}).
   *
   * @param config the validated configuration
   * @return the plugin
   */
  public static TimeContextPlugin create(TimeContextConfig config) {
    return new TimeContextPlugin(config);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Reads the process zone once when no {@code timeZone} is set, and registers the prepended
   * pre-step listener. Closing the installation removes the listener; a pre-step that completes
   * after that gets no reading.
   *
   * @param host the host
   * @return the installation
   * @throws CompositionException {@code time-context: failed to resolve the system time zone} when
   *     no {@code timeZone} is set and the host's process zone is not one the resolver knows
   */
  @Override
  public Installation install(Host host) {
    TimeContextConfig.Resolved normalized;
    try {
      normalized = config.resolve(() -> readProcessZone(host));
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
