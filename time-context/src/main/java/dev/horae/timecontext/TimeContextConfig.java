package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.plugin.OnceSettings;
import dev.horae.spi.session.Json;
import dev.horae.spi.zone.ZoneResolver;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of time-context (spec §3), typed: build it with {@link #builder()}, take the
 * {@link #defaults()}, or read a configuration file's object with {@link #fromJson}. Every path
 * validates with the spec's exact load-time messages ({@link InvalidConfigException}).
 *
 * <p>Without a {@code timeZone} the fallback zone is the process zone, which only the host knows:
 * {@link #resolve} reads it once, when the plugin loads, and yields the {@link Resolved} form the
 * reading builder uses.
 *
 * @param timeZone the canonical name of the configured zone; empty for the process zone (the
 *     default)
 * @param refreshIntervalMs minimum milliseconds between readings in one session; 0 (the default)
 *     means every eligible step
 * @param clientZoneGuidance true selects the opt-in three-line reading; false (the default) the
 *     two-line one
 */
public record TimeContextConfig(Optional<String> timeZone, long refreshIntervalMs, boolean clientZoneGuidance) {

  private static final String PREFIX = "time-context: ";

  /**
   * Validates the settings in the spec's order (§3.1: the interval, then the zone) and stores the
   * zone by its canonical name: any zone or link name of the resolver is accepted, in any ASCII
   * case ({@code US/Eastern} becomes {@code America/New_York}).
   *
   * @throws InvalidConfigException with the exact load-time message when a setting is invalid
   */
  public TimeContextConfig {
    Objects.requireNonNull(timeZone, "timeZone");
    if (refreshIntervalMs < 0 || !EcmaNumbers.isSafeInteger(refreshIntervalMs)) {
      throw intervalError(Long.toString(refreshIntervalMs));
    }
    timeZone = timeZone.map(TimeContextConfig::canonicalZone);
  }

  /**
   * The defaults: the process zone, a reading for every eligible step, the two-line form.
   *
   * @return the default configuration
   */
  public static TimeContextConfig defaults() {
    return new TimeContextConfig(Optional.empty(), 0, false);
  }

  /**
   * Starts a builder holding the defaults; each setting may be given once.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads a raw configuration object {@code {timeZone?, refreshIntervalMs?, clientZoneGuidance?}}
   * (spec §3.1). Checks run in order: {@code refreshIntervalMs}, {@code clientZoneGuidance}, then
   * {@code timeZone}. Unknown keys are ignored.
   *
   * @param config the raw configuration object (an absent or {@code null} tree means {@code {}};
   *     a member set to {@code null} counts as absent)
   * @return the configuration, equal to the one the builder makes from the same settings
   * @throws InvalidConfigException with the exact load-time message
   */
  public static TimeContextConfig fromJson(JsonNode config) {
    JsonNode interval = member(config, "refreshIntervalMs");
    long refresh = 0;
    if (interval != null) {
      refresh = refreshInterval(interval);
    }
    JsonNode guidance = member(config, "clientZoneGuidance");
    boolean threeLine = false;
    if (guidance != null) {
      if (!guidance.isBoolean()) {
        throw new InvalidConfigException(
            PREFIX + "clientZoneGuidance must be a boolean, got " + EcmaJson.write(guidance));
      }
      threeLine = guidance.booleanValue();
    }
    JsonNode zone = member(config, "timeZone");
    Optional<String> configured = Optional.empty();
    if (zone != null) {
      if (!zone.isTextual()) {
        throw zoneError(zone);
      }
      configured = Optional.of(zone.textValue());
    }
    return new TimeContextConfig(configured, refresh, threeLine);
  }

  /**
   * Validates a raw plugin configuration (spec §3.1), with the process zone given by name.
   *
   * <p>Conformance function {@code timecontext.validateConfig}: {@link #fromJson}, then {@link
   * #resolve}.
   *
   * @param config the raw configuration object (an absent or {@code null} tree means {@code {}};
   *     a member set to {@code null} counts as absent)
   * @param processZone the process zone's name, empty when it could not be determined; read only
   *     when {@code timeZone} is absent
   * @return the normalized configuration
   * @throws InvalidConfigException with the exact load-time message
   */
  public static Resolved validate(JsonNode config, Optional<String> processZone) {
    return validate(config, () -> processZone);
  }

  /**
   * Validates a raw plugin configuration (spec §3.1), reading the process zone only when
   * {@code timeZone} is absent and only after the other checks passed.
   *
   * @param config the raw configuration object (an absent or {@code null} tree means {@code {}};
   *     a member set to {@code null} counts as absent)
   * @param processZone supplies the process zone's name, empty when it cannot be determined; called
   *     at most once
   * @return the normalized configuration
   * @throws InvalidConfigException with the exact load-time message
   */
  public static Resolved validate(JsonNode config, Supplier<Optional<String>> processZone) {
    return fromJson(config).resolve(processZone);
  }

  /**
   * Validates a raw plugin configuration with the process zone as a {@link ZoneId} (spec §14.1): a
   * zero fixed offset counts as {@code UTC}, any other fixed offset cannot be resolved.
   *
   * @param config the raw configuration object
   * @param processZone the process zone as read once from the host's supplier
   * @return the normalized configuration
   * @throws InvalidConfigException with the exact load-time message
   */
  public static Resolved validate(JsonNode config, ZoneId processZone) {
    return fromJson(config).resolve(processZone);
  }

  /**
   * Fixes the fallback zone (spec §3.1, step 3): the configured {@code timeZone}, or else the
   * process zone, which must be a zone the resolver knows.
   *
   * @param processZone supplies the process zone's name, empty when it cannot be determined;
   *     called at most once, and only when no {@code timeZone} is configured
   * @return the normalized configuration
   * @throws InvalidConfigException {@code time-context: failed to resolve the system time zone}
   */
  public Resolved resolve(Supplier<Optional<String>> processZone) {
    String fallback =
        timeZone.orElseGet(
            () ->
                processZone
                    .get()
                    .flatMap(ZoneResolver.standard()::canonicalName)
                    .orElseThrow(() -> new InvalidConfigException(PREFIX + "failed to resolve the system time zone")));
    return new Resolved(fallback, refreshIntervalMs, clientZoneGuidance);
  }

  /**
   * Fixes the fallback zone with the process zone as a {@link ZoneId} (see {@link
   * #processZoneName}).
   *
   * @param processZone the process zone
   * @return the normalized configuration
   * @throws InvalidConfigException {@code time-context: failed to resolve the system time zone}
   */
  public Resolved resolve(ZoneId processZone) {
    return resolve(() -> processZoneName(processZone));
  }

  /**
   * The name under which a process zone is looked up: {@code UTC} for a zero offset, nothing for
   * any other fixed offset, otherwise the region id.
   *
   * @param zone the process zone
   * @return the name to resolve, or empty when the zone cannot be a fallback zone
   */
  public static Optional<String> processZoneName(ZoneId zone) {
    if (zone instanceof ZoneOffset offset) {
      return offset.getTotalSeconds() == 0 ? Optional.of("UTC") : Optional.empty();
    }
    return Optional.of(zone.getId());
  }

  /**
   * The configuration as a JSON configuration object that {@link #fromJson} reads back to an equal
   * configuration; {@code timeZone} is left out when the process zone is meant.
   *
   * @return a new JSON object
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    timeZone.ifPresent(z -> o.put("timeZone", z));
    o.put("refreshIntervalMs", refreshIntervalMs);
    o.put("clientZoneGuidance", clientZoneGuidance);
    return o;
  }

  private static String canonicalZone(String name) {
    return ZoneResolver.standard().canonicalName(name).orElseThrow(() -> zoneError(TextNode.valueOf(name)));
  }

  private static @Nullable JsonNode member(JsonNode config, String name) {
    // JSON has no "undefined": an explicit null means "not configured", as the conformance
    // format treats null optional fields
    JsonNode value = config.isObject() ? config.get(name) : null;
    return value == null || value.isNull() ? null : value;
  }

  private static long refreshInterval(JsonNode value) {
    if (!value.isNumber()) {
      throw intervalError(EcmaJson.write(value));
    }
    // read as a double first, as ECMAScript's JSON parser does (schedule spec §16.2)
    double d = value.doubleValue();
    if (!EcmaNumbers.isSafeInteger(d) || d < 0) {
      throw intervalError(EcmaNumbers.toString(d));
    }
    return (long) d;
  }

  private static InvalidConfigException intervalError(String got) {
    return new InvalidConfigException(
        PREFIX + "refreshIntervalMs must be a non-negative safe integer, got " + got);
  }

  private static InvalidConfigException zoneError(JsonNode zone) {
    return new InvalidConfigException(PREFIX + "invalid IANA timeZone " + EcmaJson.write(zone));
  }

  /**
   * The normalized configuration (spec §3.1), with the fallback zone fixed: what the reading
   * builder uses and conformance's {@code timecontext.validateConfig} returns.
   *
   * @param timeZone the canonical fallback zone: the configured {@code timeZone}, or the process
   *     zone read once at load
   * @param refreshIntervalMs minimum milliseconds between readings in one session; 0 means every
   *     eligible step
   * @param clientZoneGuidance true selects the opt-in three-line reading
   */
  public record Resolved(String timeZone, long refreshIntervalMs, boolean clientZoneGuidance) {

    /**
     * Checks the invariants of a normalized configuration.
     *
     * @throws IllegalArgumentException when the zone is not canonical or the interval is out of
     *     range
     */
    public Resolved {
      Objects.requireNonNull(timeZone, "timeZone");
      if (!ZoneResolver.standard().isCanonical(timeZone)) {
        throw new IllegalArgumentException("timeZone must be a canonical zone name, got " + timeZone);
      }
      if (refreshIntervalMs < 0 || !EcmaNumbers.isSafeInteger(refreshIntervalMs)) {
        throw new IllegalArgumentException(
            "refreshIntervalMs must be a non-negative safe integer, got " + refreshIntervalMs);
      }
    }

    /**
     * The normalized configuration as conformance JSON:
     * {@code {"timeZone","refreshIntervalMs","clientZoneGuidance"}}.
     *
     * @return a new JSON object
     */
    public ObjectNode toJson() {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("timeZone", timeZone);
      o.put("refreshIntervalMs", refreshIntervalMs);
      o.put("clientZoneGuidance", clientZoneGuidance);
      return o;
    }
  }

  /**
   * Builds a {@link TimeContextConfig}. Each setting may be given once; a second call throws
   * {@code IllegalStateException: <setting> was already set for this time-context configuration}.
   * {@link #build()} validates every setting.
   */
  public static final class Builder {
    private final OnceSettings given = new OnceSettings("time-context configuration");
    private Optional<String> timeZone = Optional.empty();
    private long refreshIntervalMs;
    private boolean clientZoneGuidance;

    private Builder() {}

    /**
     * Sets the zone of the timestamp (the fallback zone of the three-line form). Default: the
     * process zone, read once when the plugin loads.
     *
     * @param value an IANA zone or link name, in any ASCII case
     * @return this builder
     */
    public Builder timeZone(String value) {
      given.mark("timeZone");
      timeZone = Optional.of(Objects.requireNonNull(value, "timeZone"));
      return this;
    }

    /**
     * Sets the minimum time between readings in one session. Default 0: every eligible step.
     *
     * @param value milliseconds, a non-negative safe integer
     * @return this builder
     */
    public Builder refreshIntervalMs(long value) {
      given.mark("refreshIntervalMs");
      refreshIntervalMs = value;
      return this;
    }

    /**
     * Selects the three-line reading with the client-zone line. Default false: two lines.
     *
     * @param value true for three lines
     * @return this builder
     */
    public Builder clientZoneGuidance(boolean value) {
      given.mark("clientZoneGuidance");
      clientZoneGuidance = value;
      return this;
    }

    /**
     * Builds and validates the configuration.
     *
     * @return the configuration
     * @throws InvalidConfigException with the exact load-time message of the first invalid
     *     setting, e.g. {@code time-context: invalid IANA timeZone "Mars/Base"}
     */
    public TimeContextConfig build() {
      return new TimeContextConfig(timeZone, refreshIntervalMs, clientZoneGuidance);
    }
  }
}
