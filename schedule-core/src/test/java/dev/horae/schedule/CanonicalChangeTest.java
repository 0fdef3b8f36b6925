package dev.horae.schedule;

import static dev.horae.schedule.ChangeCodecTest.stored;
import static dev.horae.schedule.Logs.afterCreate;
import static dev.horae.schedule.Logs.atCreate;
import static dev.horae.schedule.Logs.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The decoder's short path ({@link CanonicalChange}): the text this library writes is read from its
 * bytes as the full decoder reads it, and every other text, or a text a check refuses, is left to
 * the full decoder, so {@link ChangeCodec#decode(dev.horae.spi.session.SessionEvent)} answers the
 * same change or error either way.
 */
class CanonicalChangeTest {

  private static final String AFTER = afterCreate("schedule-1", "check logs", 30, "2026-08-05T12:00:30.000Z");
  private static final String AT = atCreate("schedule-2", "join meeting", "2026-08-06T01:00:00.000Z");
  private static final String DELETE = "{\"version\":1,\"operation\":\"delete\",\"id\":\"schedule-1\"}";
  private static final String DISPATCH = "{\"version\":1,\"operation\":\"dispatch\",\"id\":\"schedule-2\"}";

  private static @Nullable ScheduleChange shortPath(String payload) {
    return CanonicalChange.read(ByteBuffer.wrap(payload.getBytes(StandardCharsets.UTF_8)));
  }

  /** What a decoder answers: the change, or the error's message. */
  private static Object outcome(java.util.function.Supplier<ScheduleChange> decoder) {
    try {
      return decoder.get();
    } catch (CorruptScheduleLogException e) {
      return "corrupt: " + e.getMessage();
    }
  }

  /** The stored bytes decode as the tree does, whichever path read them. */
  private static Object sameAsTree(String payload) {
    Object fromTree = outcome(() -> ChangeCodec.decode(json(payload)));
    assertThat(outcome(() -> ChangeCodec.decode(stored(payload)))).as("stored %s", payload).isEqualTo(fromTree);
    return fromTree;
  }

  @Test
  void theFourShapesAsWrittenAreReadByTheShortPathAsTheFullDecoderReadsThem() {
    for (String payload : List.of(AFTER, AT, DELETE, DISPATCH)) {
      ScheduleChange change = java.util.Objects.requireNonNull(shortPath(payload), payload);
      assertThat(change).isEqualTo(ChangeCodec.decode(json(payload)));
      assertThat(Json.write(ChangeCodec.encode(change))).isEqualTo(payload);
    }
    assertThat(shortPath(DELETE)).isInstanceOf(ScheduleChange.Delete.class);
    assertThat(shortPath(DISPATCH)).isInstanceOf(ScheduleChange.Dispatch.class);
    assertThat(shortPath(AFTER)).isEqualTo(new ScheduleChange.Create(new ScheduleRecord.After(
        "schedule-1", "check logs", 30, ((ScheduleChange.Create) ChangeCodec.decode(json(AFTER))).record().scheduledAtMillis())));
  }

  @Test
  void everyChangeTheLibraryWritesDecodesAsItsTreeAndPlainTextTakesTheShortPath() {
    Random random = new Random(2026_12_05L);
    int shortPaths = 0;
    for (int i = 0; i < 2_000; i++) {
      String id = text(random, 1 + random.nextInt(12));
      String prompt = text(random, 1 + random.nextInt(40));
      long millis = random.nextLong() % 4_000_000_000_000L;
      millis = Math.abs(millis);
      ScheduleChange change = switch (random.nextInt(4)) {
        case 0 -> new ScheduleChange.Create(new ScheduleRecord.After(
            id, prompt, 1 + (random.nextBoolean() ? random.nextInt(1_000) : Math.abs(random.nextLong() % 9_007_199_254_740_991L)),
            millis));
        case 1 -> new ScheduleChange.Create(new ScheduleRecord.At(id, prompt, millis));
        case 2 -> new ScheduleChange.Delete(id);
        default -> new ScheduleChange.Dispatch(id);
      };
      String payload = Json.write(ChangeCodec.encode(change));
      assertThat(ChangeCodec.decode(stored(payload))).as(payload).isEqualTo(change);
      ScheduleChange fast = shortPath(payload);
      // an encoder escapes quotes and backslashes; every other character here is written as it is
      boolean plain = payload.chars().allMatch(c -> c >= 0x20 && c != 0x7f && c != '\\');
      boolean digitsFit = !(change instanceof ScheduleChange.Create create
          && create.record() instanceof ScheduleRecord.After after && after.afterSeconds() >= 1_000_000_000_000_000L);
      if (plain && digitsFit) {
        assertThat(fast).as(payload).isEqualTo(change);
        shortPaths++;
      } else {
        assertThat(fast).as(payload).isNull();
      }
    }
    assertThat(shortPaths).isGreaterThan(500);
  }

  @Test
  void anyOtherTextGoesToTheFullDecoderWhichAnswersAsForItsTree() {
    List<String> others = List.of(
        // spacing, member order, extra or repeated members
        AFTER.replace("{\"version\"", "{ \"version\""),
        DELETE.replace(":\"delete\"", ": \"delete\""),
        DELETE + " ",
        "{\"operation\":\"delete\",\"version\":1,\"id\":\"schedule-1\"}",
        DELETE.replace("}", ",\"extra\":true}"),
        AFTER.replace("\"kind\":\"after\"", "\"kind\":\"after\",\"kind\":\"after\""),
        AT.replace("\"prompt\"", "\"note\":1,\"prompt\""),
        AFTER.replace(",\"afterSeconds\":30", ""),
        // values the short path does not read
        DELETE.replace("\"version\":1", "\"version\":2"),
        DELETE.replace("\"version\":1", "\"version\":1.0"),
        DELETE.replace("delete", "Delete"),
        DELETE.replace("schedule-1", "sched\\u0075le-1"),
        AFTER.replace("check logs", "check \\\"logs\\\""),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":30.0"),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":3e1"),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":-30"),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":\"30\""),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":1234567890123456"),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":9007199254740993"),
        AT.replace("\"kind\":\"at\"", "\"kind\":\"later\""),
        AT.replace("\"kind\":\"at\"", "\"kind\":\"after\""),
        AFTER.replace("\"kind\":\"after\"", "\"kind\":\"at\""),
        "{\"version\":1,\"operation\":\"create\",\"schedule\":null}",
        "{\"version\":1,\"operation\":\"dispatch\",\"id\":7}",
        "[]");
    for (String payload : others) {
      assertThat(shortPath(payload)).as(payload).isNull();
      sameAsTree(payload);
    }
    // the ones the full decoder accepts still decode, to the change their tree holds
    assertThat(sameAsTree(others.get(0))).isEqualTo(shortPath(AFTER));
    assertThat(sameAsTree(others.get(3))).isEqualTo(shortPath(DELETE));
    assertThat(sameAsTree(others.get(11))).isEqualTo(shortPath(DELETE));
  }

  @Test
  void aValueTheChecksRefuseInTheWrittenLayoutFailsOnTheShortPathAsOnTheFullDecoder() {
    List<String> refused = List.of(
        DELETE.replace("schedule-1", " schedule-1"),
        DISPATCH.replace("schedule-2", ""),
        AFTER.replace("check logs", "check logs "),
        AT.replace("join meeting", ""),
        AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":0"),
        AFTER.replace("schedule-1", "schedule-1 "),
        AT.replace("schedule-2", " "),
        AFTER.replace("2026-08-05T12:00:30.000Z", "2026-08-05T12:00:30Z"),
        AT.replace("2026-08-06T01:00:00.000Z", "2026-02-30T01:00:00.000Z"),
        // the first check that fails decides: the prompt is checked before the id
        AFTER.replace("check logs", "").replace("schedule-1", ""));
    for (String payload : refused) {
      Object fromTree = sameAsTree(payload);
      assertThat(fromTree).as(payload).asString().startsWith("corrupt: ");
      Object fast;
      try {
        fast = shortPath(payload);
      } catch (CorruptScheduleLogException e) {
        fast = "corrupt: " + e.getMessage();
      }
      assertThat(fast).as(payload).isEqualTo(fromTree);
    }
  }

  @Test
  void aPayloadCutShortOrRunningOnIsNotReadByTheShortPath() {
    for (String payload : List.of(AFTER, AT, DELETE, DISPATCH)) {
      for (int cut = 0; cut < payload.length(); cut++) {
        assertThat(shortPath(payload.substring(0, cut))).as("%s cut at %d", payload, cut).isNull();
      }
      assertThat(shortPath(payload + "}")).isNull();
      assertThat(shortPath(payload + "\"")).isNull();
    }
  }

  @Test
  void onlyTheWholeWrittenLayoutIsReadAndItsStringsArePrintableAscii() {
    String start = "{\"version\":1,\"operation\":\"";
    // the layout without its opening members
    assertThat(shortPath(AFTER.substring(start.length()))).isNull();
    assertThat(shortPath(DISPATCH.substring(start.length()))).isNull();
    // a leading zero (no JSON text holds one) and a number past 15 digits
    assertThat(shortPath(AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":030"))).isNull();
    assertThat(shortPath(AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":999999999999999")))
        .isEqualTo(ChangeCodec.decode(json(AFTER.replace("\"afterSeconds\":30", "\"afterSeconds\":999999999999999"))));
    // text runs from the space up, without DEL; control bytes (NUL included) are not read here
    assertThat(shortPath(DELETE.replace("schedule-1", "a ~ b"))).isEqualTo(new ScheduleChange.Delete("a ~ b"));
    assertThat(shortPath(DELETE.replace("schedule-1", "a\u007fb"))).isNull();
    assertThat(shortPath(DELETE.replace("schedule-1", "a\u001fb"))).isNull();
    assertThat(shortPath(DELETE.replace("schedule-1", "a\u0000b"))).isNull();
  }

  @Test
  void wellFormedUtf8IsReadByTheShortPathAndAnythingElseIsNot() {
    for (String text : List.of("schédule-2", "日本の会議", "ping 😀 now", "é", "\u07ff\u0800\uffff\ud800\udc00\udbff\udfff")) {
      String payload = DISPATCH.replace("schedule-2", text);
      assertThat(shortPath(payload)).as(payload).isEqualTo(new ScheduleChange.Dispatch(text));
      assertThat(sameAsTree(payload)).isEqualTo(new ScheduleChange.Dispatch(text));
      String prompt = AT.replace("join meeting", text);
      assertThat(shortPath(prompt)).as(prompt).isEqualTo(ChangeCodec.decode(json(prompt)));
    }
    // bytes that are not well-formed UTF-8: a lone continuation, an overlong form, an encoded
    // surrogate, a code point past U+10FFFF, a sequence cut short, a byte no sequence starts with
    byte[] prefix = "{\"version\":1,\"operation\":\"dispatch\",\"id\":\"a".getBytes(StandardCharsets.US_ASCII);
    byte[] suffix = "b\"}".getBytes(StandardCharsets.US_ASCII);
    int[][] malformed = {{0x80}, {0xc0, 0x80}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}, {0xe6, 0x97}, {0xff}};
    for (int[] bad : malformed) {
      byte[] payload = new byte[prefix.length + bad.length + suffix.length];
      System.arraycopy(prefix, 0, payload, 0, prefix.length);
      for (int i = 0; i < bad.length; i++) {
        payload[prefix.length + i] = (byte) bad[i];
      }
      System.arraycopy(suffix, 0, payload, prefix.length + bad.length, suffix.length);
      assertThat(CanonicalChange.read(ByteBuffer.wrap(payload))).as(java.util.Arrays.toString(bad)).isNull();
    }
  }

  /** Printable text with the characters an encoder escapes and a few beyond ASCII, trimmed. */
  private static String text(Random random, int length) {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_ .:/";
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int pick = random.nextInt(60);
      if (pick == 0) {
        b.append('"');
      } else if (pick == 1) {
        b.append('\\');
      } else if (pick == 2) {
        b.append('é');
      } else {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
    }
    String t = b.toString().strip();
    return t.isEmpty() ? "x" : t;
  }
}
