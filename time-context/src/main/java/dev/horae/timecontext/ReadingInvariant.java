package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import dev.horae.spi.zone.TimeContextAuthority;
import dev.horae.timecontext.internal.Events;
import dev.horae.timecontext.internal.Position;
import dev.horae.timecontext.internal.ReadingGrammar;
import dev.horae.timecontext.internal.ReadingText;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The invariant rules of spec §11 for both reading forms, as a pure function of a log prefix and a
 * candidate event. The invariant companion wraps it as a pre-append validator and as a check of
 * existing logs.
 *
 * <p>Pure and thread-safe. The form is recognised from the text alone, so the verdict does not
 * depend on the current configuration.
 */
public final class ReadingInvariant {

  private static final BigInteger MAX_SAFE = BigInteger.valueOf(EcmaNumbers.MAX_SAFE_INTEGER);

  private ReadingInvariant() {}

  /**
   * Checks one candidate event against the log prefix that precedes it.
   *
   * <p>Conformance function {@code timecontext.invariant}. Events other than a {@code user/message}
   * attributed to time-context are accepted without a look. The prefix is read backwards only as
   * far as the open turn's {@code turn/start}, so a pre-append validator can call this on every
   * candidate of a long log.
   *
   * @param prefix the raw events before the candidate
   * @param candidate the event as it would be committed (its {@code time} assigned)
   * @return the first failing check, or empty when the candidate is valid
   */
  public static Optional<ReadingViolation> check(List<SessionEvent> prefix, SessionEvent candidate) {
    if (!Events.isAttributedReading(candidate)) {
      return Optional.empty();
    }
    JsonNode data = candidate.data();
    Optional<String> content = TimeContextAuthority.singleText(data.path("content"));
    if (content.isEmpty()) {
      return fail("time-context messages must contain exactly one text block");
    }
    String text = content.get();
    Optional<ReadingGrammar.Parsed> parsed = ReadingGrammar.parse(text);
    if (parsed.isEmpty()) {
      return fail("time-context message does not match the durable reading format");
    }
    ReadingGrammar.Parsed reading = parsed.get();
    Optional<Long> turn = positiveSafe(reading.turn());
    Optional<Long> step = positiveSafe(reading.step());
    if (turn.isEmpty() || step.isEmpty()) {
      return fail("time-context turn and step must be positive safe integers");
    }
    Optional<ReadingViolation> position = checkPosition(Position.of(prefix), turn.get(), step.get());
    if (position.isPresent()) {
      return position;
    }
    if (!TimeContextAuthority.isSnapshotSource(data.path("source"), text)) {
      return fail("time-context source must carry only the exact snapshot text, not request authority");
    }
    ClientZoneContext context = ClientZoneContext.MISSING;
    if (reading.zoneLine().isPresent()) {
      try {
        context = ClientZoneContext.derive(turnMessages(prefix, turn.get()));
      } catch (ClientZoneException e) {
        return Optional.of(new ReadingViolation(String.valueOf(e.getMessage()), ReadingViolation.Kind.CLIENT_ZONE));
      }
      if (!context.line().equals(reading.zoneLine().get())) {
        return fail("time-context browser-zone text does not match current-turn user messages");
      }
    }
    String expectedLabel = ReadingText.baselineLabel(step.get());
    if (!reading.baselineLabel().equals(expectedLabel)) {
      return fail(
          "time-context step " + step.get() + " uses the wrong elapsed-time baseline "
              + EcmaJson.string(reading.baselineLabel()));
    }
    Optional<Instant> rendered = renderedInstant(reading.timestamp());
    if (rendered.isEmpty()
        || !EcmaNumbers.isSafeInteger(candidate.time())
        || candidate.time() < rendered.get().toEpochMilli()) {
      return fail("time-context rendered timestamp must parse and not postdate its durable event");
    }
    if (context instanceof ClientZoneContext.Resolved resolved) {
      String reformatted;
      try {
        reformatted = TimeFormats.timestamp(rendered.get(), resolved.zone());
      } catch (RuntimeException e) {
        return fail(
            "time-context browser zone cannot format its durable timestamp: "
                + e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      if (!reformatted.equals(reading.labelledTimestamp())) {
        return fail("time-context rendered timestamp does not match the unique browser zone");
      }
    }
    return Optional.empty();
  }

  /**
   * Checks every reading of an existing log against the prefix before it, in log order: the check
   * an invariant companion runs on live sessions at registration and on created, forked and
   * resumed sessions. Readings in an inherited fork prefix are checked like any other.
   *
   * <p>Each check scans backwards only to the reading's {@code turn/start}, so the cost is the log
   * length times the longest turn, not quadratic in the log.
   *
   * @param log a session's raw events
   * @return the first failing reading's violation, or empty when every reading is valid
   */
  public static Optional<ReadingViolation> checkLog(List<SessionEvent> log) {
    for (int i = 0; i < log.size(); i++) {
      Optional<ReadingViolation> violation = check(log.subList(0, i), log.get(i));
      if (violation.isPresent()) {
        return violation;
      }
    }
    return Optional.empty();
  }

  private static Optional<ReadingViolation> checkPosition(Position position, long turn, long step) {
    if (position.turn().isEmpty()) {
      return fail("time-context reading must be appended inside an open turn");
    }
    if (position.step().isEmpty()) {
      return fail("time-context reading must follow step/start");
    }
    if (position.requestStarted()) {
      return fail("time-context reading must precede request/header");
    }
    JsonNode openTurn = position.turn().get();
    JsonNode openStep = position.step().get();
    if (!sameNumber(openTurn, turn) || !sameNumber(openStep, step)) {
      return fail(
          "time-context reading names turn " + turn + "/step " + step + ", expected turn "
              + render(openTurn) + "/step " + render(openStep));
    }
    return Optional.empty();
  }

  private static boolean sameNumber(JsonNode node, long value) {
    return node.isNumber() && node.doubleValue() == (double) value;
  }

  private static String render(JsonNode node) {
    if (node.isMissingNode()) {
      return "undefined";
    }
    return node.isTextual() ? node.textValue() : EcmaJson.write(node);
  }

  /** The {@code user/message} payloads after the last {@code turn/start} of the turn. */
  private static List<JsonNode> turnMessages(List<SessionEvent> prefix, long turn) {
    List<JsonNode> messages = new ArrayList<>();
    for (int i = prefix.size() - 1; i >= 0; i--) {
      SessionEvent e = prefix.get(i);
      if (Events.isTurnStartOf(e, turn)) {
        Collections.reverse(messages);
        return messages;
      }
      if (e.type().equals(EventTypes.USER_MESSAGE)) {
        messages.add(e.data());
      }
    }
    // no turn/start of that turn: no messages (cannot happen once the position check passed)
    return List.of();
  }

  private static Optional<Long> positiveSafe(String digits) {
    BigInteger value = new BigInteger(digits);
    if (value.signum() <= 0 || value.compareTo(MAX_SAFE) > 0) {
      return Optional.empty();
    }
    return Optional.of(value.longValue());
  }

  private static Optional<Instant> renderedInstant(String timestamp) {
    try {
      return Optional.of(OffsetDateTime.parse(timestamp, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<ReadingViolation> fail(String message) {
    return Optional.of(ReadingViolation.rule(message));
  }
}
