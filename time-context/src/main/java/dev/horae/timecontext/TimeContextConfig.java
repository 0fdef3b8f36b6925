package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.session.Json;
import dev.horae.spi.zone.ZoneResolver;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The normalized configuration of time-context (spec §3).
 *
 * @param timeZone the canonical fallback zone: the configured {@code timeZone}, or the process zone
 *     read once at load
 * @param refreshIntervalMs minimum milliseconds between readings in one session; 0 means every
 *     eligible step
 * @param clientZoneGuidance true selects the opt-in three-line reading
 */
public record TimeContextConfig(String timeZone, long refreshIntervalMs, boolean clientZoneGuidance) {

  private static final String PREFIX = "time-context: ";

  /**
   * Checks the invariants of a normalized configuration.
   *
   * @throws IllegalArgumentException when the zone is not canonical or the interval is out of range
   */
  public TimeContextConfig {
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
   * Validates a raw plugin configuration (spec §3.1), with the process zone given by name.
   *
   * <p>Conformance function {@code timecontext.validateConfig}. Checks run in order:
   * {@code refreshIntervalMs}, {@code clientZoneGuidance}, then the zone. Unknown keys are
   * ignored.
   *
   * @param config the raw configuration object (an absent or {@code null} tree means {@code {}};
   *     a member set to {@code null} counts as absent)
   * @param processZone the process zone's name, empty when it could not be determined; read only
   *     when {@code timeZone} is absent
   * @return the normalized configuration
   * @throws InvalidConfigException with the exact load-time message
   */
  public static TimeContextConfig validate(JsonNode config, Optional<String> processZone) {
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
  public static TimeContextConfig validate(JsonNode config, Supplier<Optional<String>> processZone) {
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
    String fallback;
    if (zone != null) {
      Optional<String> canonical =
          zone.isTextual() ? ZoneResolver.standard().canonicalName(zone.textValue()) : Optional.empty();
      fallback =
          canonical.orElseThrow(
              () -> new InvalidConfigException(PREFIX + "invalid IANA timeZone " + EcmaJson.write(zone)));
    } else {
      fallback =
          processZone
              .get()
              .flatMap(ZoneResolver.standard()::canonicalName)
              .orElseThrow(() -> new InvalidConfigException(PREFIX + "failed to resolve the system time zone"));
    }
    return new TimeContextConfig(fallback, refresh, threeLine);
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
  public static TimeContextConfig validate(JsonNode config, ZoneId processZone) {
    return validate(config, () -> processZoneName(processZone));
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
}
