package dev.horae.store.internal.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineFrameTest {

  private static SessionEvent event(long seq) {
    return SessionEvent.of(seq, "t", seq * 10, Json.parse("{\"k\":\"v\u00e4\",\"n\":" + seq + "}"));
  }

  private static LineResult decode(byte[] line, long expected) {
    return LineFrame.decode(line, line.length - 1, expected);
  }

  @Test
  void aLineIsCrcSpaceJsonArrayNewline() {
    byte[] line = LineFrame.encode(List.of(event(0), event(1)));
    String text = new String(line, StandardCharsets.UTF_8);
    assertThat(text).matches("[0-9a-f]{8} \\[\\{\"seq\":0,.*\\}\\]\n");
    byte[] json = text.substring(9, text.length() - 1).getBytes(StandardCharsets.UTF_8);
    assertThat(text.substring(0, 8)).isEqualTo(LineFrame.crcHex(json, 0, json.length));
    assertThat(decode(line, 0)).isEqualTo(new LineResult.Good(List.of(event(0), event(1))));
  }

  @Test
  void theChecksumIsCrc32cNotCrc32() {
    // CRC-32C check value of "123456789" (RFC 3720)
    byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
    assertThat(LineFrame.crcHex(check, 0, check.length)).isEqualTo("e3069283");
  }

  @Test
  void everySingleByteFlipIsDetected() {
    byte[] line = LineFrame.encode(List.of(event(4), event(5), event(6)));
    Random random = new Random(7);
    for (int i = 0; i < line.length - 1; i++) {
      byte[] copy = line.clone();
      copy[i] = (byte) (copy[i] ^ (1 << random.nextInt(8)));
      assertThat(decode(copy, 4)).as("flip at byte %d", i).isInstanceOf(LineResult.BadFrame.class);
    }
  }

  @Test
  void seqsThatDoNotContinueAreAGapNotABadFrame() {
    byte[] line = LineFrame.encode(List.of(event(3)));
    assertThat(decode(line, 2)).isEqualTo(new LineResult.SeqGap(2, 3));
  }

  @Test
  void badShapesAreBadFrames() {
    assertThat(LineFrame.decode(new byte[0], 0, 0)).isEqualTo(new LineResult.BadFrame("empty line"));
    assertThat(frame("[]")).isEqualTo(new LineResult.BadFrame("not a non-empty JSON array of events"));
    assertThat(frame("{\"seq\":0}")).isEqualTo(new LineResult.BadFrame("not a non-empty JSON array of events"));
    assertThat(frame("[1,")).isInstanceOfSatisfying(
        LineResult.BadFrame.class, b -> assertThat(b.why()).startsWith("unparsable JSON: "));
    assertThat(frame("[{\"seq\":0,\"type\":\"t\",\"time\":1}]"))
        .isEqualTo(new LineResult.BadFrame("bad event at seq 0: event member \"data\" is missing"));
  }

  @Test
  void anEmptyBatchCannotBeEncoded() {
    assertThatThrownBy(() -> LineFrame.encode(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void surfaceOpsAndSourcesSurvive() {
    SessionEvent e = new SessionEvent(0, "x", 1, Json.parse("[1.50]"),
        Optional.of(new dev.horae.spi.session.SurfaceOp.Replace(0, 0)), List.of(0L));
    LineResult r = decode(LineFrame.encode(List.of(e)), 0);
    assertThat(r).isEqualTo(new LineResult.Good(List.of(e)));
    assertThat(((LineResult.Good) r).events().get(0).data().toString()).isEqualTo("[1.50]");
  }

  private static LineResult frame(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    byte[] line = (LineFrame.crcHex(bytes, 0, bytes.length) + " " + json).getBytes(StandardCharsets.UTF_8);
    return LineFrame.decode(line, line.length, 0);
  }
}
