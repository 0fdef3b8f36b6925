package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputWindowTest {

  private static void write(OutputWindow w, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    w.append(b, 0, b.length);
  }

  private static void write(OutputWindow w, byte... bytes) {
    w.append(bytes, 0, bytes.length);
  }

  @Test
  void keepsHeadAndTailAndCountsTheOmittedMiddle() {
    OutputWindow w = new OutputWindow(8, 8);
    write(w, "0123456789abcdefghijXYZ");
    assertThat(w.read()).isEqualTo("01234567\n[... 7 bytes omitted ...]\nfghijXYZ");
    assertThat(w.read()).isEmpty();
  }

  @Test
  void trimmedPartialCharactersAtTheCutsCountAsOmitted() {
    OutputWindow w = new OutputWindow(4, 4);
    write(w, "aé界bc界");
    assertThat(w.read()).isEqualTo("aé\n[... 4 bytes omitted ...]\nc界");
  }

  @Test
  void aPartialCharacterAtTheEndIsHeldBackForTheNextRead() {
    OutputWindow w = new OutputWindow(8, 8);
    byte[] kai = "界".getBytes(StandardCharsets.UTF_8);
    write(w, (byte) 'a', (byte) 'b', kai[0]);
    assertThat(w.read()).isEqualTo("ab");
    write(w, kai[1], kai[2]);
    assertThat(w.read()).isEqualTo("界");
  }

  @Test
  void aPartialCharacterAtEndOfStreamDecodesToTheReplacementCharacter() {
    OutputWindow w = new OutputWindow(8, 8);
    byte[] kai = "界".getBytes(StandardCharsets.UTF_8);
    write(w, (byte) 'x', kai[0], kai[1]);
    assertThat(w.read()).isEqualTo("x");
    w.end();
    assertThat(w.drained()).isFalse();
    assertThat(w.read()).isEqualTo("\uFFFD");
    assertThat(w.drained()).isTrue();
    assertThat(w.read()).isEmpty();
  }

  @Test
  void anEmptyHeadLeavesOutTheFirstNewline() {
    OutputWindow w = new OutputWindow(0, 4);
    write(w, "abcdefgh");
    assertThat(w.read()).isEqualTo("[... 4 bytes omitted ...]\nefgh");
  }

  @Test
  void multiByteOutputSplitAcrossChunksIsNeverSplitInARead() {
    OutputWindow w = new OutputWindow(8192, 24576);
    byte[] all = "界é😀".repeat(50).getBytes(StandardCharsets.UTF_8);
    StringBuilder seen = new StringBuilder();
    for (int i = 0; i < all.length; i += 5) {
      w.append(all, i, Math.min(5, all.length - i));
      seen.append(w.read());
    }
    assertThat(seen.toString()).isEqualTo("界é😀".repeat(50)).doesNotContain("\uFFFD");
  }

  @Test
  void retentionStaysBoundedWhateverIsWritten() {
    OutputWindow w = new OutputWindow(8192, 24576);
    byte[] chunk = new byte[8192];
    java.util.Arrays.fill(chunk, (byte) 'z');
    long written = 0;
    for (int i = 0; i < 12_800; i++) {
      w.append(chunk, 0, chunk.length);
      written += chunk.length;
      assertThat(w.retainedBytes()).isLessThanOrEqualTo(8192 + 24576 + 3);
    }
    String text = w.read();
    assertThat(text).contains("[... " + (written - 8192 - 24576) + " bytes omitted ...]");
    assertThat(text.length()).isLessThan(8192 + 24576 + 64);
  }
}
