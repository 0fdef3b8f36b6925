package dev.horae.spi.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CanonicalEvent}, the store's short path for one event, and {@link JsonScan}, its check of
 * a payload: the short path answers exactly what the parser's reading ({@link EventCodec#parse})
 * answers, or nothing — never an event the parser refuses or reads otherwise.
 */
class CanonicalEventTest {

  /** The short path reads integers of at most 18 digits; longer ones go to the parser. */
  private static final long EIGHTEEN_DIGITS = 1_000_000_000_000_000_000L;

  private static final String[] TYPES = {"user/message", "schedule/change", "t", "a b", "x~y", "/"};

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String event(long seq, String type, long time, String data, String tail) {
    return "{\"seq\":" + seq + ",\"type\":\"" + type + "\",\"time\":" + time + ",\"data\":" + data + tail + "}";
  }

  /** The parser's reading of the text: the event written out with its fields, or its error. */
  private static String parsed(byte[] text) {
    try {
      return described(EventCodec.parse(text, 0, text.length, null));
    } catch (EventCodec.Unreadable e) {
      return "unreadable " + e.syntax() + " " + e.getMessage();
    }
  }

  private static String described(SessionEvent e) {
    return EventCodec.write(e) + " " + e + " " + e.surfaceOp() + " " + e.sourceEventSeqs();
  }

  /** The short path's reading must be the parser's, when it gives one; answers whether it did. */
  private static boolean agrees(byte[] text) {
    SessionEvent shortPath = CanonicalEvent.read(text, 0, text.length, null);
    if (shortPath == null) {
      return false;
    }
    assertThat(described(shortPath)).as(new String(text, StandardCharsets.UTF_8)).isEqualTo(parsed(text));
    // the same bytes inside a larger buffer, the payload copied into blocks
    byte[] framed = new byte[text.length + 7];
    System.arraycopy(text, 0, framed, 3, text.length);
    SessionEvent inBlocks = CanonicalEvent.read(framed, 3, text.length, new PayloadBlocks());
    assertThat(inBlocks).isNotNull();
    assertThat(described(java.util.Objects.requireNonNull(inBlocks))).isEqualTo(described(shortPath));
    return true;
  }

  @Test
  void everyCanonicalEventWithAPayloadInTheSubsetIsReadAsTheParserReadsIt() {
    Random random = new Random(1919);
    for (int n = 0; n < 3_000; n++) {
      String tail = switch (random.nextInt(5)) {
        case 0 -> ",\"surfaceOp\":{\"op\":\"append\"}";
        case 1 -> ",\"surfaceOp\":{\"op\":\"replace\",\"start\":" + random.nextInt(5) + ",\"end\":" + (5 + random.nextInt(9))
            + "},\"sourceEventSeqs\":[" + random.nextInt(3) + "," + random.nextInt(1_000_000) + "]";
        case 2 -> ",\"sourceEventSeqs\":[" + random.nextLong(EIGHTEEN_DIGITS) + "]";
        default -> "";
      };
      long time = random.nextBoolean() ? random.nextLong(-EIGHTEEN_DIGITS, EIGHTEEN_DIGITS) : random.nextInt(1_000);
      String text = event(random.nextInt(1_000_000), TYPES[random.nextInt(TYPES.length)], time, value(random, 0, true), tail);
      assertThat(agrees(utf8(text))).as(text).isTrue();
    }
  }

  /** The parser's reading of a line's text: its events written out, or its error. */
  private static String parsedArray(byte[] text) {
    try {
      return EventCodec.parseArray(text, 0, text.length, null).stream().map(CanonicalEventTest::described).toList().toString();
    } catch (EventCodec.Unreadable e) {
      return "unreadable " + e.syntax() + " " + e.getMessage() + " " + e.before().map(List::size);
    }
  }

  /** The short path's reading of a line must be the parser's, when it gives one. */
  private static boolean arrayAgrees(byte[] text) {
    List<SessionEvent> shortPath = CanonicalEvent.readArray(text, 0, text.length, new PayloadBlocks());
    if (shortPath == null) {
      return false;
    }
    assertThat(shortPath.stream().map(CanonicalEventTest::described).toList().toString())
        .as(new String(text, StandardCharsets.UTF_8))
        .isEqualTo(parsedArray(text));
    assertThat(EventCodec.readArray(text, 0, text.length)).isEqualTo(shortPath);
    return true;
  }

  private static String line(Random random, boolean plain, boolean tailSpace) {
    StringBuilder line = new StringBuilder("[");
    for (int i = 1 + random.nextInt(4); i > 0; i--) {
      line.append(event(random.nextInt(1_000), "t", 3, value(random, 0, plain), "")).append(i > 1 ? "," : "");
    }
    return line.append(']').append(tailSpace ? " \t\r\n" : "").toString();
  }

  @Test
  void aStoredLineOfCanonicalEventsIsReadAsTheParserReadsIt() {
    Random random = new Random(7);
    for (int n = 0; n < 1_000; n++) {
      String text = line(random, true, random.nextBoolean());
      assertThat(arrayAgrees(utf8(text))).as(text).isTrue();
    }
    for (String other : List.of("[]", " [" + event(1, "t", 2, "3", "") + "]", "[" + event(1, "t", 2, "3", "") + " ]",
        "[" + event(1, "t", 2, "3", "") + ", " + event(2, "t", 2, "3", "") + "]", "[" + event(1, "t", 2, "3", "") + "] x",
        "[" + event(1, "t", 2, "3", "") + "][]", "[" + event(1, "t", 2, "3", "") + ",]", event(1, "t", 2, "3", ""))) {
      byte[] text = utf8(other);
      assertThat(CanonicalEvent.readArray(text, 0, text.length, null)).as(other).isNull();
    }
  }

  @Test
  void whatTheShortPathReadsOfAnyDamagedLineIsWhatTheParserReads() {
    Random random = new Random(11);
    byte[] alphabet = {'{', '}', '[', ']', '"', ',', '0', '-', '.', 'e', ' ', '\n', 0, (byte) 0xC3, (byte) 0xED};
    int read = 0;
    for (int n = 0; n < 20_000; n++) {
      byte[] text = edit(utf8(line(random, random.nextInt(5) > 0, random.nextBoolean())), random, alphabet);
      read += arrayAgrees(text) ? 1 : 0;
    }
    assertThat(read).isGreaterThan(500);
  }

  @Test
  void whatTheShortPathReadsOfAnyDamagedTextIsWhatTheParserReads() {
    Random random = new Random(2026);
    byte[] alphabet = {'{', '}', '[', ']', '"', '\\', ',', ':', '0', '1', '9', '-', '+', '.', 'e', 'E', 't', 'n', 'u',
        ' ', '\n', '\t', 0, 0x1F, 0x7F, (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xC3, (byte) 0xE0, (byte) 0xED,
        (byte) 0xA0, (byte) 0xF0, (byte) 0xF4, (byte) 0x90, (byte) 0xFF};
    int read = 0;
    for (int n = 0; n < 50_000; n++) {
      String tail = random.nextBoolean() ? "" : ",\"surfaceOp\":{\"op\":\"replace\",\"start\":1,\"end\":2}";
      byte[] text = utf8(event(random.nextInt(100), "t", 5, value(random, 0, random.nextInt(5) > 0), tail));
      for (int edits = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1; edits > 0; edits--) {
        text = edit(text, random, alphabet);
      }
      read += agrees(text) ? 1 : 0;
    }
    // an edit inside a string or white space, or one that makes another value, keeps the text
    // readable: about one text in twenty-five
    assertThat(read).isGreaterThan(1_500);
  }

  private static byte[] edit(byte[] text, Random random, byte[] alphabet) {
    if (text.length == 0) {
      return new byte[] {alphabet[random.nextInt(alphabet.length)]};
    }
    int at = random.nextInt(text.length);
    byte b = alphabet[random.nextInt(alphabet.length)];
    return switch (random.nextInt(4)) {
      case 0 -> {
        byte[] out = text.clone();
        out[at] = b;
        yield out;
      }
      case 1 -> {
        byte[] out = new byte[text.length + 1];
        System.arraycopy(text, 0, out, 0, at);
        out[at] = b;
        System.arraycopy(text, at, out, at + 1, text.length - at);
        yield out;
      }
      case 2 -> {
        byte[] out = new byte[text.length - 1];
        System.arraycopy(text, 0, out, 0, at);
        System.arraycopy(text, at + 1, out, at, text.length - at - 1);
        yield out;
      }
      default -> Arrays.copyOf(text, at);
    };
  }

  /** A JSON value: in the subset when {@code plain}, else now and then just outside it. */
  private static String value(Random random, int depth, boolean plain) {
    int kind = random.nextInt(depth > 4 ? 4 : 6);
    return switch (kind) {
      case 0 -> string(random, plain);
      case 1 -> number(random, plain);
      case 2 -> List.of("true", "false", "null").get(random.nextInt(3));
      case 3 -> {
        // around the deepest nesting the subset holds
        int deep = plain ? 0 : JsonScan.MAX_DEPTH - 4 - depth + random.nextInt(8);
        yield "[".repeat(Math.max(deep, 0)) + "0" + "]".repeat(Math.max(deep, 0));
      }
      case 4 -> {
        StringBuilder o = new StringBuilder("{");
        for (int i = random.nextInt(4); i > 0; i--) {
          o.append(space(random)).append(string(random, plain, true)).append(space(random)).append(':').append(space(random))
              .append(value(random, depth + 1, plain)).append(space(random)).append(i > 1 ? "," : "");
        }
        yield o.append('}').toString();
      }
      default -> {
        StringBuilder a = new StringBuilder("[");
        for (int i = random.nextInt(4); i > 0; i--) {
          a.append(space(random)).append(value(random, depth + 1, plain)).append(space(random)).append(i > 1 ? "," : "");
        }
        yield a.append(']').toString();
      }
    };
  }

  private static String space(Random random) {
    return List.of("", "", "", " ", "\n", "\t", "\r\n ").get(random.nextInt(7));
  }

  private static String string(Random random, boolean plain) {
    return string(random, plain, false);
  }

  // a name of the subset escapes no surrogate (JsonScan says why)
  private static String string(Random random, boolean plain, boolean name) {
    boolean noSurrogate = plain && name;
    StringBuilder s = new StringBuilder("\"");
    for (int i = random.nextInt(12); i > 0; i--) {
      s.append(switch (random.nextInt(16)) {
        case 0 -> "\\\"";
        case 1 -> "\\\\";
        case 2 -> "\\/";
        case 3 -> List.of("\\b", "\\f", "\\n", "\\r", "\\t").get(random.nextInt(5));
        case 4 -> String.format("\\u%04x", random.nextInt(noSurrogate ? 0xD800 : 0x10000));
        case 5 -> noSurrogate ? "\\u0041" : "\\uD83D\\uDE00";
        case 6 -> "\u00e9\u4e2d";
        case 7 -> "\uD83D\uDE00";
        case 8 -> "\uFFFF\uFFFE\u007F";
        case 9 -> plain ? "x" : "\u0001";
        default -> String.valueOf((char) ('a' + random.nextInt(26)));
      });
    }
    return s.append('"').toString();
  }

  private static String number(Random random, boolean plain) {
    StringBuilder n = new StringBuilder(random.nextBoolean() ? "-" : "");
    if (random.nextInt(10) == 0) {
      n.append('0');
    } else {
      n.append(1 + random.nextInt(9));
      for (int i = random.nextInt(plain ? 20 : 45); i > 0; i--) {
        n.append(random.nextInt(10));
      }
    }
    if (random.nextBoolean()) {
      n.append('.').append(random.nextInt(1000));
    }
    if (random.nextBoolean()) {
      n.append(random.nextBoolean() ? 'e' : 'E').append(List.of("", "+", "-").get(random.nextInt(3)))
          .append(random.nextInt(plain ? 999 : 99_999));
    }
    return n.length() > JsonScan.MAX_NUMBER && plain ? "1" : n.toString();
  }

  @Test
  void theSubsetEndsAtItsLimitsAndTheParserReadsWhatLiesBeyond() {
    String deepest = "[".repeat(JsonScan.MAX_DEPTH) + "]".repeat(JsonScan.MAX_DEPTH);
    String deeper = "[" + deepest + "]";
    String longest = "-1." + "2".repeat(JsonScan.MAX_NUMBER - 7) + "e-99";
    String name = "n".repeat(JsonScan.MAX_NAME);
    for (String[] pair : new String[][] {
        {deepest, deeper},
        {longest, "-1." + "2".repeat(JsonScan.MAX_NUMBER - 6) + "e-99"},
        {"1e999", "1e0999"},
        {"{\"" + name + "\":1}", "{\"" + name + "n\":1}"}}) {
      byte[] inside = utf8(event(1, "t", 2, pair[0], ""));
      byte[] outside = utf8(event(1, "t", 2, pair[1], ""));
      assertThat(agrees(inside)).as(pair[0]).isTrue();
      assertThat(CanonicalEvent.read(outside, 0, outside.length, null)).as(pair[1]).isNull();
      assertThat(parsed(outside)).as(pair[1]).doesNotStartWith("unreadable");
    }
    String head = event(1, "t", 2, "\"", "");
    String filler = "x".repeat(JsonScan.MAX_TEXT - head.length() - 1);
    byte[] whole = utf8(event(1, "t", 2, "\"" + filler + "\"", ""));
    byte[] over = utf8(event(1, "t", 2, "\"" + filler + "x\"", ""));
    assertThat(whole.length).isEqualTo(JsonScan.MAX_TEXT);
    assertThat(agrees(whole)).isTrue();
    assertThat(CanonicalEvent.read(over, 0, over.length, null)).isNull();
    assertThat(EventCodec.readEvent(over, 0, over.length).dataLength()).isEqualTo(filler.length() + 3);
  }

  @Test
  void aNameEscapingASurrogateGoesToTheParserButAnEscapedBackslashBeforeUIsNoEscape() {
    byte[] surrogate = utf8(event(1, "t", 2, "{\"\\uD83D\\uDE00\":1}", ""));
    assertThat(CanonicalEvent.read(surrogate, 0, surrogate.length, null)).isNull();
    assertThat(parsed(surrogate)).doesNotStartWith("unreadable");
    // a backslash escaped, then the letters uD83D: no escape at all
    assertThat(agrees(utf8(event(1, "t", 2, "{\"\\\\uD83D\":1}", "")))).isTrue();
    assertThat(agrees(utf8(event(1, "t", 2, "{\"x\":\"\\uD83D\"}", "")))).as("a value's escape is stepped over").isTrue();
  }

  @Test
  void aRangeOutsideTheBufferIsRefusedBeforeAnythingIsRead() {
    byte[] text = utf8(event(1, "t", 2, "3", ""));
    assertThatThrownBy(() -> EventCodec.readArray(text, 5, text.length))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("Range [5, 5 + " + text.length + ") out of bounds for length " + text.length);
    assertThatThrownBy(() -> EventCodec.readEvent(text, 5, text.length))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("Range [5, 5 + " + text.length + ") out of bounds for length " + text.length);
  }

  @Test
  void everyOtherLayoutIsLeftToTheParser() {
    List<String> others = List.of(
        "{ \"seq\":1,\"type\":\"t\",\"time\":2,\"data\":3}",
        "{\"type\":\"t\",\"seq\":1,\"time\":2,\"data\":3}",
        "{\"seq\":1,\"type\":\"t\",\"time\":2,\"data\":3} ",
        "\uFEFF" + event(1, "t", 2, "3", ""),
        event(1, "t", 2, " 3", ""),
        "{\"seq\":01,\"type\":\"t\",\"time\":2,\"data\":3}",
        "{\"seq\":-1,\"type\":\"t\",\"time\":2,\"data\":3}",
        "{\"seq\":1,\"type\":\"t\",\"time\":-0,\"data\":3}",
        "{\"seq\":1,\"type\":\"t\",\"time\":2.0,\"data\":3}",
        "{\"seq\":1234567890123456789,\"type\":\"t\",\"time\":2,\"data\":3}",
        "{\"seq\":1,\"type\":\"t\",\"time\":-1234567890123456789,\"data\":3}",
        event(1, "t\\u0041", 2, "3", ""),
        event(1, "\u00e9", 2, "3", ""),
        event(1, " ", 2, "3", ""),
        event(1, "", 2, "3", ""),
        event(1, "t", 2, "3", ",\"extra\":1"),
        event(1, "t", 2, "3", ",\"surfaceOp\":{\"op\":\"replace\",\"start\":5,\"end\":1}"),
        event(1, "t", 2, "3", ",\"surfaceOp\":{\"op\":\"replace\",\"start\":1,\"end\":2,\"x\":0}"),
        event(1, "t", 2, "3", ",\"surfaceOp\":{\"op\":\"insert\"}"),
        event(1, "t", 2, "3", ",\"surfaceOp\":null"),
        event(1, "t", 2, "3", ",\"sourceEventSeqs\":[]"),
        event(1, "t", 2, "3", ",\"sourceEventSeqs\":[1,]"),
        event(1, "t", 2, "3", ",\"sourceEventSeqs\":[1.5]"),
        event(1, "t", 2, "3", ",\"sourceEventSeqs\":[1],\"surfaceOp\":{\"op\":\"append\"}"),
        event(1, "t", 2, "3", ",\"data\":4"),
        "{\"seq\":1,\"type\":\"t\",\"time\":2,\"data\":3",
        "{\"seq\":1,\"type\":\"t\",\"time\":2}",
        event(1, "t", 2, "\"a\u0001\"", ""),
        event(1, "t", 2, "\"\\x\"", ""),
        event(1, "t", 2, "\"\\u12g4\"", ""),
        event(1, "t", 2, "01", ""),
        event(1, "t", 2, "1.", ""),
        event(1, "t", 2, ".5", ""),
        event(1, "t", 2, "+1", ""),
        event(1, "t", 2, "1e", ""),
        event(1, "t", 2, "tru", ""),
        event(1, "t", 2, "nulls", ""),
        event(1, "t", 2, "[1 2]", ""),
        event(1, "t", 2, "{\"a\" 1}", ""),
        event(1, "t", 2, "{\"a\":1,}", ""),
        event(1, "t", 2, "{1:2}", ""),
        event(1, "t", 2, "[1,]", ""),
        event(1, "t", 2, "[1}", ""),
        event(1, "t", 2, "NaN", ""));
    for (String other : others) {
      byte[] text = utf8(other);
      assertThat(CanonicalEvent.read(text, 0, text.length, null)).as(other).isNull();
    }
    // the short path's refusal still reads: the parser gives the answer
    byte[] spaced = utf8(others.get(0));
    assertThat(EventCodec.readEvent(spaced, 0, spaced.length).seq()).isEqualTo(1);
    byte[] blank = utf8(event(1, " ", 2, "3", ""));
    assertThatThrownBy(() -> EventCodec.readEvent(blank, 0, blank.length))
        .isInstanceOf(EventCodec.Unreadable.class)
        .hasMessage("event type must not be blank");
  }

  @Test
  void aUtf8SequenceIsInTheSubsetExactlyWhenAStrictDecoderDecodesIt() {
    for (int lead = 0x80; lead <= 0xFF; lead++) {
      for (int second = 0; second <= 0xFF; second++) {
        for (int rest : new int[] {0x7F, 0x80, 0xBF, 0xC0}) {
          byte[] bytes = {(byte) lead, (byte) second, (byte) rest, (byte) rest, '"'};
          int end = JsonScan.utf8(bytes, 0, bytes.length);
          int strict = strictPrefix(bytes);
          assertThat(end).as("%x %x %x", lead, second, rest).isEqualTo(strict);
        }
      }
    }
    // a sequence cut by the end of the text
    assertThat(JsonScan.utf8(new byte[] {(byte) 0xE4, (byte) 0xB8}, 0, 2)).isEqualTo(-1);
  }

  // where the one character a strict decoder reads from the start of the bytes ends, or -1
  private static int strictPrefix(byte[] bytes) {
    for (int length = 2; length <= 4; length++) {
      try {
        StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes, 0, length));
        return length;
      } catch (CharacterCodingException e) {
        // not one whole character in this many bytes
      }
    }
    return -1;
  }

  @Test
  void theSubsetIsUsedOnlyWhenTheParsersLimitsHoldIt() {
    assertThat(JsonScan.USABLE).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.defaults())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNestingDepth(JsonScan.MAX_DEPTH + 2).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNestingDepth(JsonScan.MAX_DEPTH + 1).build())).isFalse();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNumberLength(JsonScan.MAX_NUMBER).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNumberLength(JsonScan.MAX_NUMBER - 1).build())).isFalse();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxStringLength(JsonScan.MAX_TEXT).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxStringLength(JsonScan.MAX_TEXT - 1).build())).isFalse();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNameLength(JsonScan.MAX_NAME).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxNameLength(JsonScan.MAX_NAME - 1).build())).isFalse();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxDocumentLength(JsonScan.MAX_TEXT).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxDocumentLength(JsonScan.MAX_TEXT - 1).build())).isFalse();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxTokenCount(JsonScan.MAX_TEXT).build())).isTrue();
    assertThat(JsonScan.fits(StreamReadConstraints.builder().maxTokenCount(JsonScan.MAX_TEXT - 1).build())).isFalse();
  }

  @Test
  void aStoredReadTakesTheShortPathAndKeepsItsAnswer() {
    byte[] text = utf8(event(7, "schedule/change", 9, "{\"a\":[1,2.50,\"\u00e9\"]}", ",\"surfaceOp\":{\"op\":\"append\"}"));
    SessionEvent viaCodec = EventCodec.readEvent(text, 0, text.length);
    assertThat(viaCodec).isEqualTo(CanonicalEvent.read(text, 0, text.length, null));
    assertThat(viaCodec.surfaceOp()).isEqualTo(Optional.of(SurfaceOp.APPEND));
    assertThat(viaCodec.type()).isSameAs(EventCodec.type(utf8("schedule/change"), 0, 15));
  }
}
