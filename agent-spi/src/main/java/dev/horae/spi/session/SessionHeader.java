package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The immutable header of a session (host contract §3.3).
 *
 * @param version header format version ({@link #CURRENT_VERSION})
 * @param id session id
 * @param createdAt epoch milliseconds at creation
 * @param cwd optional working directory
 * @param parentSession id of the session this one was forked from
 * @param seedLength number of leading events inherited from the parent at fork (absent means 0)
 * @param origin optional origin, {@code subagent} for subagent children
 * @param delegationDepth optional nesting depth of delegated agents
 * @param agentPreset optional preset the agent was composed from
 * @param timeZone optional immutable session zone, a canonical IANA name fixed at creation
 */
public record SessionHeader(
    int version,
    String id,
    long createdAt,
    Optional<String> cwd,
    Optional<String> parentSession,
    long seedLength,
    Optional<String> origin,
    OptionalInt delegationDepth,
    Optional<String> agentPreset,
    Optional<String> timeZone) {

  /** The header format version this library writes. */
  public static final int CURRENT_VERSION = 1;

  /**
   * Validates the header.
   *
   * @throws IllegalArgumentException when the id is blank or {@code seedLength} is negative
   */
  public SessionHeader {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("session id must not be blank");
    }
    if (seedLength < 0) {
      throw new IllegalArgumentException("seedLength must be >= 0, got " + seedLength);
    }
  }

  /**
   * A fresh root header with no parent, seed or optional members.
   *
   * @param id session id
   * @param createdAt epoch milliseconds
   * @param timeZone optional canonical session zone
   * @return the header
   */
  public static SessionHeader root(String id, long createdAt, Optional<String> timeZone) {
    return new SessionHeader(
        CURRENT_VERSION, id, createdAt, Optional.empty(), Optional.empty(), 0, Optional.empty(),
        OptionalInt.empty(), Optional.empty(), timeZone);
  }

  /**
   * The header of a child forked from this one: new id, parent set, seed length, zone copied.
   *
   * @param childId the child's session id
   * @param createdAt epoch milliseconds
   * @param seed number of inherited events
   * @return the child header
   */
  public SessionHeader forkChild(String childId, long createdAt, long seed) {
    return new SessionHeader(
        CURRENT_VERSION, childId, createdAt, cwd, Optional.of(id), seed, Optional.empty(),
        OptionalInt.empty(), agentPreset, timeZone);
  }

  /**
   * The header as JSON, with absent members left out ({@code seedLength} only when non-zero).
   *
   * @return a new JSON object
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("version", version);
    o.put("id", id);
    o.put("createdAt", createdAt);
    cwd.ifPresent(v -> o.put("cwd", v));
    parentSession.ifPresent(v -> o.put("parentSession", v));
    if (seedLength != 0) {
      o.put("seedLength", seedLength);
    }
    origin.ifPresent(v -> o.put("origin", v));
    delegationDepth.ifPresent(v -> o.put("delegationDepth", v));
    agentPreset.ifPresent(v -> o.put("agentPreset", v));
    timeZone.ifPresent(v -> o.put("timeZone", v));
    return o;
  }

  /**
   * Reads a header written by {@link #toJson()}.
   *
   * @param json the header object
   * @return the header
   * @throws IllegalArgumentException when a required member is missing or mistyped
   */
  public static SessionHeader fromJson(JsonNode json) {
    if (!json.isObject()) {
      throw new IllegalArgumentException("session header must be a JSON object");
    }
    return new SessionHeader(
        requireInt(json, "version"),
        requireText(json, "id"),
        requireLong(json, "createdAt"),
        optText(json, "cwd"),
        optText(json, "parentSession"),
        json.has("seedLength") ? requireLong(json, "seedLength") : 0,
        optText(json, "origin"),
        json.has("delegationDepth") ? OptionalInt.of(requireInt(json, "delegationDepth")) : OptionalInt.empty(),
        optText(json, "agentPreset"),
        optText(json, "timeZone"));
  }

  private static String requireText(JsonNode json, String name) {
    JsonNode v = json.get(name);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("session header member \"" + name + "\" must be a string");
    }
    return v.asText();
  }

  private static long requireLong(JsonNode json, String name) {
    JsonNode v = json.get(name);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("session header member \"" + name + "\" must be an integer");
    }
    return v.longValue();
  }

  private static int requireInt(JsonNode json, String name) {
    long v = requireLong(json, name);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("session header member \"" + name + "\" is out of range");
    }
    return (int) v;
  }

  private static Optional<String> optText(JsonNode json, String name) {
    JsonNode v = json.get(name);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("session header member \"" + name + "\" must be a string");
    }
    return Optional.of(v.asText());
  }
}
