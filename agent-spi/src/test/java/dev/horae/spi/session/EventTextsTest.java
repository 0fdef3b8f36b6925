package dev.horae.spi.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link EventCodec.Texts}, one parser over consecutive stored texts: it gives a text's events
 * only when they are what {@link EventCodec#readArray} of that text alone gives, so a bad line
 * never leaks its state (an unclosed array, a half-read string) into the lines after it.
 */
class EventTextsTest {

  private static final String GOOD = "[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{\"a\":[1,2.50,\"x\"]}}]";

  // texts a file's lines may hold: good ones, and every way a line can be bad or odd
  private static final List<byte[]> TEXTS = List.of(
      utf8(GOOD),
      utf8("  [ {\"seq\":1,\"type\":\"u\",\"time\":2,\"data\":\"\u00e9\\u0041\",\"surfaceOp\":{\"op\":\"append\"}} ]  \t\r"),
      utf8("[{\"seq\":2,\"type\":\"t\",\"time\":1,\"data\":5},{\"seq\":3,\"type\":\"t\",\"time\":1,\"data\":null,"
          + "\"sourceEventSeqs\":[0,1],\"extra\":{\"b\":[true,false]}}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1}"),
      utf8("]"),
      utf8(",{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1}] x"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1}]5"),
      utf8(GOOD + " " + GOOD),
      utf8("[]"),
      utf8("{\"seq\":0}"),
      utf8("7"),
      utf8("[{\"seq\":\"x\",\"type\":\"t\",\"time\":1,\"data\":1}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1},{\"seq\":1}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":[1,}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":\"abc"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1.5e}]"),
      utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1,\"surfaceOp\":{\"op\":\"x\"}}]"),
      utf8("   "),
      utf8(""),
      utf8("\uFEFF" + GOOD),
      bytes(GOOD.substring(0, 36), new byte[] {(byte) 0xC3, 0x28}, "\"}]"),
      bytes("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":\"", new byte[] {0}, "\"}]"),
      new byte[] {0, '[', 0, ']'},
      utf8("[".repeat(1001) + "]".repeat(1001)));

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String before, byte[] middle, String after) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(utf8(before));
    out.writeBytes(middle);
    out.writeBytes(utf8(after));
    return out.toByteArray();
  }

  /** What readArray of the text alone gives: its events written out, or its error. */
  private static String alone(byte[] buffer, int offset, int length) {
    try {
      return written(EventCodec.readArray(buffer, offset, length));
    } catch (EventCodec.Unreadable e) {
      return "unreadable " + e.syntax() + " " + e.getMessage() + " " + e.before().map(EventTextsTest::written);
    }
  }

  private static String written(List<SessionEvent> events) {
    return new String(EventCodec.writeArray(events), StandardCharsets.UTF_8) + " " + events;
  }

  @Test
  void everyTextReadsAsReadArrayReadsItAloneWhateverCameBefore() {
    Random random = new Random(19);
    int vouched = 0;
    int goodAfterGood = 0;
    for (int round = 0; round < 300; round++) {
      // lines as a file holds them: an 8-digit checksum, a space, the text, a newline
      List<Integer> picks = new ArrayList<>();
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      List<int[]> lines = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        int pick = random.nextInt(4) == 0 ? random.nextInt(TEXTS.size()) : random.nextInt(3);
        picks.add(pick);
        byte[] text = TEXTS.get(pick);
        int start = file.size();
        file.writeBytes(utf8("0badc0de "));
        file.writeBytes(text);
        lines.add(new int[] {start, start + 9, text.length});
        file.write('\n');
      }
      byte[] buffer = file.toByteArray();
      byte[] original = buffer.clone();
      EventCodec.Texts texts = null;
      boolean lastVouched = false;
      for (int i = 0; i < lines.size(); i++) {
        int[] line = lines.get(i);
        String expected = alone(original, line[1], line[2]);
        // the scanner's part: the checked frame becomes white space before the text is read
        Arrays.fill(buffer, line[0], line[1], (byte) ' ');
        if (texts == null) {
          texts = EventCodec.texts(buffer, line[0], buffer.length);
        }
        Optional<List<SessionEvent>> read = texts.read(line[1], line[2]);
        if (read.isPresent()) {
          assertThat(written(read.get())).as("line %d of %s", i, picks).isEqualTo(expected);
          vouched++;
          if (lastVouched && picks.get(i) < 3) {
            goodAfterGood++;
          }
        } else {
          texts = null;
        }
        lastVouched = read.isPresent() && picks.get(i) < 3;
      }
      // the reader changes no byte of the buffer
      for (int[] line : lines) {
        assertThat(Arrays.copyOfRange(buffer, line[1], line[1] + line[2]))
            .isEqualTo(Arrays.copyOfRange(original, line[1], line[1] + line[2]));
      }
    }
    // the point of the reader: good lines after a good line are read by the same parser
    assertThat(vouched).isGreaterThan(1500);
    assertThat(goodAfterGood).isGreaterThan(1000);
  }

  @Test
  void aGoodTextAfterAGoodOneIsReadByTheSameReaderAndABadOneSpendsIt() {
    byte[] buffer = utf8("         " + GOOD + "\n         " + GOOD + "\n         [1,\n         " + GOOD + "\n");
    int length = GOOD.length();
    EventCodec.Texts texts = EventCodec.texts(buffer, 0, buffer.length);
    assertThat(texts.read(9, length)).isPresent();
    assertThat(texts.read(9 + length + 10, length)).isPresent();
    int bad = 2 * (length + 10) + 9;
    assertThat(texts.read(bad, 2)).isEmpty();
    // spent: it reads nothing more, not even a good text
    int next = bad + 4 + 9;
    assertThat(texts.read(next, length)).isEmpty();
    EventCodec.Texts fresh = EventCodec.texts(buffer, bad + 4, buffer.length);
    assertThat(fresh.read(next, length)).map(EventTextsTest::written)
        .contains(written(EventCodec.readArray(buffer, next, length)));
  }

  @Test
  void bytesBeforeATextThatAreNotWhiteSpaceOrATextOutOfOrderGiveNothing() {
    int length = GOOD.length();
    byte[] buffer = utf8("0badc0de " + GOOD + "\n" + "         " + GOOD + "\n");
    assertThat(EventCodec.texts(buffer, 0, buffer.length).read(9, length)).isEmpty();
    EventCodec.Texts texts = EventCodec.texts(buffer, 9, buffer.length);
    assertThat(texts.read(9, length)).isPresent();
    // the same text again lies before where the reader stands
    assertThat(texts.read(9, length)).isEmpty();
    // a text past the reader's end is not read
    assertThat(EventCodec.texts(buffer, 9, 20).read(9, length)).isEmpty();
  }
}
