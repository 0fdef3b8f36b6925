package dev.horae.spi.zone;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time-context authority (time-context spec §10, schedule spec §6.8.2): what the durable log
 * says about the zones of the current step. Schedule reads it before it accepts a local time
 * without an explicit zone; time-context writes the readings it looks for.
 *
 * <p>It is derived only from the raw log and the header, never from process state, so every
 * caller at every moment, in this process or after a restart, gets the same answer. It lives
 * below both plugins because it joins their facts: time-context's readings, the host's admitted
 * client zones ({@link ClientZones}) and the session header.
 *
 * <p>Pure and thread-safe.
 *
 * @param turn the open step's turn
 * @param step the open step's number
 * @param sessionZone the header's {@code timeZone} as stored, or empty for a headerless session
 * @param clientZones the client zones of the turn, sorted: none (missing), one (resolved) or
 *     several (mixed); a failed derivation counts as none
 */
public record TimeContextAuthority(
    long turn, long step, Optional<String> sessionZone, List<String> clientZones) {

  /** The plugin name a reading's source carries, and the name of its one section. */
  public static final String PLUGIN = "time-context";

  /**
   * Checks presence and freezes the zones.
   *
   * @param turn as described on the record
   * @param step as described on the record
   * @param sessionZone as described on the record
   * @param clientZones as described on the record
   */
  public TimeContextAuthority {
    Objects.requireNonNull(sessionZone, "sessionZone");
    clientZones = List.copyOf(clientZones);
  }

  /**
   * The client zone when every zone-carrying prompt of the turn carried the same one.
   *
   * @return the zone, or empty when the client context is missing or mixed
   */
  public Optional<String> resolvedClientZone() {
    return clientZones.size() == 1 ? Optional.of(clientZones.get(0)) : Optional.empty();
  }

  /**
   * Derives the authority at this moment of the log.
   *
   * <ol>
   *   <li>Open step: scanning backwards, a {@code step/start} must come before any {@code
   *       step/end}, {@code turn/end} or {@code turn/start}; it gives turn {@code T} and step
   *       {@code N} (safe integers).
   *   <li>Evidence: a {@code user/message} after that {@code step/start} is a reading of the
   *       exact snapshot shape ({@link #isReading}). A reading of an earlier step does not count.
   *   <li>Client zones: {@link ClientZones#derive} over every {@code user/message} after the
   *       last {@code turn/start} of {@code T}; none when the log has no such event.
   * </ol>
   *
   * <p>The scan stops at that {@code turn/start}, so its cost is bounded by the current turn.
   *
   * @param events the session's raw log, shadowed and inherited events included
   * @param sessionZone the header's {@code timeZone}, empty when the session is headerless
   * @return the authority, or empty when there is no open step or no exact reading in it
   */
  public static Optional<TimeContextAuthority> of(List<SessionEvent> events, Optional<String> sessionZone) {
    int marker = lastStepMarker(events);
    if (marker < 0 || !events.get(marker).type().equals(EventTypes.STEP_START)) {
      return Optional.empty();
    }
    JsonNode stepData = events.get(marker).data();
    OptionalLong turn = EcmaNumbers.safeInteger(stepData.path("turn"));
    OptionalLong step = EcmaNumbers.safeInteger(stepData.path("step"));
    if (turn.isEmpty() || step.isEmpty() || !hasReadingAfter(events, marker)) {
      return Optional.empty();
    }
    return Optional.of(new TimeContextAuthority(
        turn.getAsLong(), step.getAsLong(), sessionZone, clientZones(events, turn.getAsLong())));
  }

  /**
   * Whether {@link #of} over a suffix of the log gives the same answer as over the whole log: the
   * backward scan for the open step ends inside the suffix and, when a step is open, the suffix
   * also holds the {@code turn/start} of its turn. Lets a caller read only the tail of a long log.
   *
   * @param suffix the last events of the log, in order
   * @return true when the suffix suffices
   */
  public static boolean decidableWithin(List<SessionEvent> suffix) {
    int marker = lastStepMarker(suffix);
    if (marker < 0) {
      return false;
    }
    if (!suffix.get(marker).type().equals(EventTypes.STEP_START)) {
      return true;
    }
    JsonNode stepData = suffix.get(marker).data();
    OptionalLong turn = EcmaNumbers.safeInteger(stepData.path("turn"));
    if (turn.isEmpty() || EcmaNumbers.safeInteger(stepData.path("step")).isEmpty()) {
      // a malformed step/start means no authority, whatever came before it
      return true;
    }
    for (int i = marker - 1; i >= 0; i--) {
      if (isTurnStartOf(suffix.get(i), turn.getAsLong())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a message is a time-context reading of the exact snapshot shape (time-context spec
   * §4.1): content of exactly one text block, and a source of exactly {@code kind: "plugin"},
   * {@code plugin: "time-context"}, {@code form: "snapshot"} and {@code sections} holding exactly
   * one section {@code {name: "time-context", text}} with the same text. The text itself is not
   * inspected.
   *
   * @param message a message in the {@code user/message} data shape
   * @return true for an exact reading
   */
  public static boolean isReading(JsonNode message) {
    Optional<String> text = singleText(message.path("content"));
    return text.isPresent() && isSnapshotSource(message.path("source"), text.get());
  }

  /**
   * The text of a content list that is exactly one block with exactly the members {@code type:
   * "text"} and a string {@code text}.
   *
   * @param content a message's {@code content} (missing node allowed)
   * @return the text, or empty when the content has any other shape
   */
  public static Optional<String> singleText(JsonNode content) {
    if (!content.isArray() || content.size() != 1) {
      return Optional.empty();
    }
    JsonNode block = content.get(0);
    if (!block.isObject()
        || block.size() != 2
        || !isText(block.path("type"), "text")
        || !block.path("text").isTextual()) {
      return Optional.empty();
    }
    return Optional.of(block.path("text").textValue());
  }

  /**
   * Whether a source is exactly the snapshot source of a reading whose text is {@code text}: the
   * four members {@code kind}, {@code plugin}, {@code form}, {@code sections} and nothing else.
   *
   * @param source a message source (missing node allowed)
   * @param text the reading's content text
   * @return true for the exact snapshot source
   */
  public static boolean isSnapshotSource(JsonNode source, String text) {
    if (!source.isObject()
        || source.size() != 4
        || !isText(source.path("kind"), "plugin")
        || !isText(source.path("plugin"), PLUGIN)
        || !isText(source.path("form"), "snapshot")) {
      return false;
    }
    JsonNode sections = source.path("sections");
    if (!sections.isArray() || sections.size() != 1) {
      return false;
    }
    JsonNode section = sections.get(0);
    return section.isObject()
        && section.size() == 2
        && isText(section.path("name"), PLUGIN)
        && isText(section.path("text"), text);
  }

  /** Index of the last step or turn boundary, or -1 when the events hold none. */
  private static int lastStepMarker(List<SessionEvent> events) {
    for (int i = events.size() - 1; i >= 0; i--) {
      String type = events.get(i).type();
      if (type.equals(EventTypes.STEP_START)
          || type.equals(EventTypes.STEP_END)
          || type.equals(EventTypes.TURN_END)
          || type.equals(EventTypes.TURN_START)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean hasReadingAfter(List<SessionEvent> events, int stepStart) {
    for (int i = stepStart + 1; i < events.size(); i++) {
      SessionEvent e = events.get(i);
      if (e.type().equals(EventTypes.USER_MESSAGE) && isReading(e.data())) {
        return true;
      }
    }
    return false;
  }

  private static List<String> clientZones(List<SessionEvent> events, long turn) {
    List<JsonNode> messages = new ArrayList<>();
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (isTurnStartOf(e, turn)) {
        Collections.reverse(messages);
        try {
          return ClientZones.derive(messages);
        } catch (ClientZoneException failed) {
          // a recorded zone the host should not have admitted: the client authority is missing
          return List.of();
        }
      }
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        messages.add(e.data());
      }
    }
    return List.of();
  }

  private static boolean isTurnStartOf(SessionEvent event, long turn) {
    if (!event.type().equals(EventTypes.TURN_START)) {
      return false;
    }
    OptionalLong t = EcmaNumbers.safeInteger(event.data().path("turn"));
    return t.isPresent() && t.getAsLong() == turn;
  }

  private static boolean isText(JsonNode node, String expected) {
    return node.isTextual() && node.textValue().equals(expected);
  }
}
