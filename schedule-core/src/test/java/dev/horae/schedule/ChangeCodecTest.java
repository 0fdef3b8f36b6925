package dev.horae.schedule;

import static dev.horae.schedule.Logs.afterCreate;
import static dev.horae.schedule.Logs.atCreate;
import static dev.horae.schedule.Logs.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Spec §3.2–§3.4: the strict v1 decoder, its check order, and the canonical encoder. */
class ChangeCodecTest {

  /** A stored event of this payload text, its bytes exactly as written (as a store loads them). */
  static SessionEvent stored(String payload) {
    String line = "{\"seq\":0,\"type\":\"schedule/change\",\"time\":0,\"data\":" + payload + "}";
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return EventCodec.readEvent(bytes, 0, bytes.length);
  }

  /** Both entry points refuse the payload with the message: its tree, and its stored bytes. */
  private static void rejects(String payload, String message) {
    assertThatThrownBy(() -> ChangeCodec.decode(json(payload)))
        .isInstanceOf(CorruptScheduleLogException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((CorruptScheduleLogException) e).code())
            .isEqualTo(ErrorCode.CORRUPT_SCHEDULE_LOG));
    assertThatThrownBy(() -> ChangeCodec.decode(stored(payload)))
        .as("from the stored bytes of %s", payload)
        .isInstanceOf(CorruptScheduleLogException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((CorruptScheduleLogException) e).code())
            .isEqualTo(ErrorCode.CORRUPT_SCHEDULE_LOG));
  }

  /** The change both entry points decode from the payload; they must agree. */
  private static ScheduleChange decode(String payload) {
    ScheduleChange fromTree = ChangeCodec.decode(json(payload));
    assertThat(ChangeCodec.decode(stored(payload))).as("from the stored bytes of %s", payload)
        .isEqualTo(fromTree);
    return fromTree;
  }

  @Test
  void decodesTheThreeShapesAndEncodesThemBackByteForByte() {
    for (String payload : new String[] {
        afterCreate("schedule-1", "check logs", 30, "2026-08-05T12:00:30.000Z"),
        atCreate("schedule-2", "join meeting", "2026-08-06T01:00:00.000Z"),
        "{\"version\":1,\"operation\":\"delete\",\"id\":\"schedule-1\"}",
        "{\"version\":1,\"operation\":\"dispatch\",\"id\":\"schedule-2\"}"}) {
      ScheduleChange change = decode(payload);
      assertThat(ChangeCodec.encodeText(change)).isEqualTo(payload);
      assertThat(Json.write(ChangeCodec.encode(change))).isEqualTo(payload);
      assertThat(ChangeCodec.decode(ChangeCodec.encode(change))).isEqualTo(change);
    }
  }

  @Test
  void payloadMustBeAnObject() {
    rejects("null", "schedule/change payload must be an object");
    rejects("[]", "schedule/change payload must be an object");
    rejects("\"create\"", "schedule/change payload must be an object");
  }

  @Test
  void versionMustBeTheNumberOneAndIsCheckedBeforeOperation() {
    rejects("{\"operation\":\"pause\"}", "schedule/change version must be 1");
    rejects("{\"version\":\"1\",\"operation\":\"delete\",\"id\":\"a\"}", "schedule/change version must be 1");
    rejects("{\"version\":2,\"operation\":\"delete\",\"id\":\"a\"}", "schedule/change version must be 1");
    assertThat(decode("{\"version\":1.0,\"operation\":\"delete\",\"id\":\"a\"}"))
        .isEqualTo(new ScheduleChange.Delete("a"));
  }

  @Test
  void operationMustBeKnown() {
    rejects("{\"version\":1,\"id\":\"a\"}", "schedule/change operation must be create, delete, or dispatch");
    rejects("{\"version\":1,\"operation\":\"pause\",\"id\":\"a\"}",
        "schedule/change operation must be create, delete, or dispatch");
    rejects("{\"version\":1,\"operation\":7,\"id\":\"a\"}",
        "schedule/change operation must be create, delete, or dispatch");
  }

  @Test
  void exactMemberSetsPerOperation() {
    rejects("{\"version\":1,\"operation\":\"create\"}",
        "schedule create must contain exactly version, operation, and schedule");
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":\"a\",\"x\":1}",
        "schedule delete must contain exactly version, operation, and id");
    rejects("{\"version\":1,\"operation\":\"dispatch\"}",
        "schedule dispatch must contain exactly version, operation, and id");
  }

  @Test
  void idRuleUsesEcmaScriptTrim() {
    String message = "schedule id must be a non-empty string without surrounding whitespace";
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":\"\"}", message);
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":7}", message);
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":\"\\u00a0a\"}", message);
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":\"a\\ufeff\"}", message);
    // U+001C is whitespace to Java's trim() and strip() but not to ECMAScript
    assertThat(decode("{\"version\":1,\"operation\":\"delete\",\"id\":\"\\u001ca\"}").id())
        .isEqualTo("\u001ca");
  }

  @Test
  void recordMustBeAnObjectWithAKnownKind() {
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":[]}", "schedule record must be an object");
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\"}}",
        "v1 schedule kind must be \"after\" or \"at\"");
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"kind\":\"every\"}}",
        "v1 schedule kind must be \"after\" or \"at\"");
  }

  @Test
  void afterRecordChecksRunInSpecOrder() {
    // member set before prompt
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\" \",\"kind\":\"after\",\"prompt\":\" \",\"scheduledAt\":\"x\"}}",
        "after schedule must contain exactly id, kind, prompt, afterSeconds, and scheduledAt");
    // prompt before afterSeconds
    rejects(afterCreate(" ", " ", 0, "x"), "after prompt must be non-empty and already trimmed");
    // afterSeconds before id
    rejects(afterCreate(" ", "p", 0, "x"), "afterSeconds must be a positive safe integer");
    // id before scheduledAt
    rejects(afterCreate(" ", "p", 1, "x"),
        "schedule id must be a non-empty string without surrounding whitespace");
    rejects(afterCreate("a", "p", 1, "x"),
        "scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
  }

  @Test
  void atRecordChecksRunInSpecOrder() {
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\",\"kind\":\"at\",\"prompt\":\"p\",\"afterSeconds\":1,\"scheduledAt\":\"x\"}}",
        "at schedule must contain exactly id, kind, prompt, and scheduledAt");
    rejects(atCreate(" ", "", "x"), "at prompt must be non-empty and already trimmed");
    rejects(atCreate(" ", "p", "x"),
        "schedule id must be a non-empty string without surrounding whitespace");
    rejects(atCreate("a", "p", "x"),
        "scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
  }

  @Test
  void afterSecondsReadsNumbersAsDoubles() {
    for (String n : new String[] {"30", "30.0", "3e1", "30.0000000000000001"}) {
      ScheduleChange c = decode(
          "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\",\"kind\":\"after\","
              + "\"prompt\":\"p\",\"afterSeconds\":" + n + ",\"scheduledAt\":\"2026-08-05T12:00:30.000Z\"}}");
      assertThat(((ScheduleRecord.After) ((ScheduleChange.Create) c).record()).afterSeconds())
          .as(n).isEqualTo(30);
    }
    for (String n : new String[] {"30.5", "0", "-0", "-1", "9007199254740992", "\"30\"", "null", "1e400"}) {
      rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\",\"kind\":\"after\","
              + "\"prompt\":\"p\",\"afterSeconds\":" + n + ",\"scheduledAt\":\"2026-08-05T12:00:30.000Z\"}}",
          "afterSeconds must be a positive safe integer");
    }
  }

  @Test
  void scheduledAtGrammarIncludesFieldRanges() {
    String grammar = "scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant";
    for (String at : new String[] {
        "0000-01-01T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-00-01T00:00:00.000Z",
        "2026-01-00T00:00:00.000Z", "2026-01-32T00:00:00.000Z", "2026-01-01T24:00:00.000Z",
        "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-08-05T12:00:00Z",
        "2026-08-05T12:00:00.00Z", "2026-08-05T12:00:00.0000Z", "2026-08-05T12:00:00.000z",
        "2026-08-05t12:00:00.000Z", "2026-08-05T12:00:00.000+00:00", "+02026-08-05T12:00:00.000Z",
        "10000-01-01T00:00:00.000Z", "2026-08-05 12:00:00.000Z", "２026-08-05T12:00:00.000Z"}) {
      rejects(atCreate("a", "p", at), grammar);
    }
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\",\"kind\":\"at\",\"prompt\":\"p\",\"scheduledAt\":0}}", grammar);
  }

  @Test
  void scheduledAtMustRoundTrip() {
    for (String at : new String[] {"2026-02-30T00:00:00.000Z", "2027-02-29T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z"}) {
      rejects(atCreate("a", "p", at), "scheduledAt is not a real UTC calendar instant");
    }
    for (String at : new String[] {"2028-02-29T00:00:00.000Z", "0001-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"}) {
      ScheduleRecord r = ((ScheduleChange.Create) decode(atCreate("a", "p", at))).record();
      assertThat(r.scheduledAt()).isEqualTo(at);
    }
  }

  @Test
  void encoderWritesEcmaScriptStringLiterals() {
    ScheduleChange c = new ScheduleChange.Create(
        new ScheduleRecord.At("id/\"1\"", "a\u0001b\u2028c\ud800", 0));
    assertThat(ChangeCodec.encodeText(c)).isEqualTo(
        "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"id/\\\"1\\\"\",\"kind\":\"at\","
            + "\"prompt\":\"a\\u0001b\u2028c\\ud800\",\"scheduledAt\":\"1970-01-01T00:00:00.000Z\"}}");
  }

  @Test
  void storedBytesDecodeAsTheirTreeWhateverTheMemberOrderSpacingOrRepeats() {
    // member order and white space do not matter: the checks read members by name
    assertThat(decode(" { \"id\" : \"a\" , \"operation\":\"delete\",\n\"version\":1 } "))
        .isEqualTo(new ScheduleChange.Delete("a"));
    assertThat(decode("{\"schedule\":{\"scheduledAt\":\"2026-08-05T12:00:30.000Z\",\"afterSeconds\":30,"
            + "\"prompt\":\"p\",\"kind\":\"after\",\"id\":\"a\"},\"operation\":\"create\",\"version\":1}"))
        .isEqualTo(new ScheduleChange.Create(new ScheduleRecord.After("a", "p", 30, 1_785_931_230_000L)));
    // the checks' order, not the text's, picks the message: version is checked first
    rejects("{\"id\":7,\"operation\":\"pause\",\"version\":2}", "schedule/change version must be 1");
    // a repeated name keeps its last value and counts once, as in a tree
    assertThat(decode("{\"version\":2,\"version\":1,\"operation\":\"delete\",\"id\":\"a\",\"id\":\"b\"}"))
        .isEqualTo(new ScheduleChange.Delete("b"));
    rejects("{\"version\":1,\"version\":\"1\",\"operation\":\"delete\",\"id\":\"a\"}",
        "schedule/change version must be 1");
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":" + atRecord() + ",\"schedule\":5}",
        "schedule record must be an object");
    assertThat(decode("{\"version\":1,\"operation\":\"create\",\"schedule\":5,\"schedule\":" + atRecord() + "}"))
        .isInstanceOf(ScheduleChange.Create.class);
    rejects("{\"version\":1,\"operation\":\"delete\",\"x\":1,\"x\":2}",
        "schedule delete must contain exactly version, operation, and id");
    assertThat(decode("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"a\",\"kind\":\"at\","
            + "\"prompt\":\"q\",\"prompt\":\"p\",\"scheduledAt\":\"1970-01-01T00:00:00.000Z\"}}"))
        .isEqualTo(new ScheduleChange.Create(new ScheduleRecord.At("a", "p", 0)));
    // escapes read as the text they denote; nested values the checks do not read are skipped
    assertThat(decode("{\"version\":1,\"operation\":\"delete\",\"id\":\"\\u0061\\n\\ud83d\\ude00b\"}").id())
        .isEqualTo("a\n\ud83d\ude00b");
    rejects("{\"version\":1,\"operation\":\"delete\",\"id\":{\"id\":\"a\"}}",
        "schedule id must be a non-empty string without surrounding whitespace");
    rejects("{\"version\":1,\"operation\":{\"version\":1},\"id\":\"a\"}",
        "schedule/change operation must be create, delete, or dispatch");
    rejects("{\"version\":[1],\"operation\":\"delete\",\"id\":\"a\"}", "schedule/change version must be 1");
    rejects("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"kind\":[\"at\"],\"schedule\":{}}}",
        "v1 schedule kind must be \"after\" or \"at\"");
    // a big integer version is a number, and not 1
    rejects("{\"version\":100000000000000000000000001,\"operation\":\"delete\",\"id\":\"a\"}",
        "schedule/change version must be 1");
  }

  private static String atRecord() {
    return "{\"id\":\"a\",\"kind\":\"at\",\"prompt\":\"p\",\"scheduledAt\":\"1970-01-01T00:00:00.000Z\"}";
  }
}
