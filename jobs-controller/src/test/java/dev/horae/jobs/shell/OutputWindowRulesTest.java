package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The unread window's rules (jobs spec §7.2) beyond {@link OutputWindowTest}: the tail ring fed in
 * small chunks, leading continuation bytes of the ring dropped and counted, incomplete sequences
 * of every length held back (and malformed bytes never held), the carry joined to the next read,
 * the exact retained-byte count, and the window's size checks.
 */
class OutputWindowRulesTest {

  private static void write(OutputWindow w, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    w.append(b, 0, b.length);
  }

  private static void write(OutputWindow w, int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      b[i] = (byte) bytes[i];
    }
    w.append(b, 0, b.length);
  }

  @Test
  void theWindowNeedsAHeadOfZeroOrMoreAndATailOfOneOrMore() {
    assertThatThrownBy(() -> new OutputWindow(-1, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window needs head >= 0 and tail >= 1, got -1/4");
    assertThatThrownBy(() -> new OutputWindow(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window needs head >= 0 and tail >= 1, got 0/0");
    OutputWindow smallest = new OutputWindow(0, 1);
    write(smallest, "abc");
    assertThat(smallest.read()).isEqualTo("[... 2 bytes omitted ...]\nc");
  }

  @Test
  void aTailFedByteByByteKeepsTheLastBytesInOrder() {
    OutputWindow w = new OutputWindow(2, 3);
    for (char c : "abcdefg".toCharArray()) {
      write(w, String.valueOf(c));
    }
    assertThat(w.read()).isEqualTo("ab\n[... 2 bytes omitted ...]\nefg");
    OutputWindow chunks = new OutputWindow(0, 4);
    write(chunks, "ab");
    write(chunks, "cde");
    write(chunks, "f");
    write(chunks, "gh");
    write(chunks, "i");
    assertThat(chunks.read()).isEqualTo("[... 5 bytes omitted ...]\nfghi");
  }

  @Test
  void aTailThatJustFillsOmitsNothing() {
    OutputWindow w = new OutputWindow(2, 4);
    write(w, "ab");
    write(w, "cd");
    write(w, "ef");
    assertThat(w.read()).isEqualTo("abcdef");
    write(w, "ghij");
    write(w, "klmn");
    assertThat(w.read()).isEqualTo("gh\n[... 2 bytes omitted ...]\nklmn");
  }

  @Test
  void leadingContinuationBytesOfTheTailAreDroppedAndCounted() {
    OutputWindow w = new OutputWindow(0, 4);
    write(w, "€€");
    assertThat(w.read()).isEqualTo("[... 3 bytes omitted ...]\n€");
    OutputWindow headed = new OutputWindow(1, 4);
    write(headed, "a€€");
    assertThat(headed.read()).isEqualTo("a\n[... 3 bytes omitted ...]\n€");
  }

  @Test
  void anIncompleteSequenceAtTheEndOfAnOmittingReadIsCarriedIntoTheNext() {
    OutputWindow w = new OutputWindow(0, 4);
    write(w, "abcdefg");
    write(w, 0xE2, 0x82);
    assertThat(w.read()).isEqualTo("[... 5 bytes omitted ...]\nfg");
    assertThat(w.retainedBytes()).isEqualTo(2);
    write(w, 0xAC);
    assertThat(w.read()).isEqualTo("€");
    OutputWindow ended = new OutputWindow(0, 4);
    write(ended, "abcdefg");
    write(ended, 0xE2, 0x82);
    ended.end();
    assertThat(ended.read()).isEqualTo("[... 5 bytes omitted ...]\nfg\uFFFD");
  }

  @Test
  void incompleteSequencesOfEveryLengthAreHeldBack() {
    int[][] partials = {{0xC3}, {0xDF}, {0xE0, 0xA0}, {0xEF, 0xBF}, {0xE2}, {0xF0, 0x9F, 0x98}, {0xF4, 0x8F}, {0xF0}};
    for (int[] partial : partials) {
      OutputWindow w = new OutputWindow(16, 16);
      write(w, partial);
      assertThat(w.read()).as("partial starting %x", partial[0]).isEmpty();
      assertThat(w.retainedBytes()).isEqualTo(partial.length);
    }
  }

  @Test
  void malformedBytesAreDecodedAtOnceNotHeldBack() {
    int[][] malformed = {{0x80}, {0x80, 0x80}, {0xC0}, {0xC1}, {0xF5}, {0xFF}, {0x61, 0x80, 0x80, 0x80, 0x80}};
    for (int[] bytes : malformed) {
      OutputWindow w = new OutputWindow(16, 16);
      write(w, bytes);
      String text = w.read();
      assertThat(text).as("bytes starting %x", bytes[0]).isNotEmpty().contains("\uFFFD");
      assertThat(w.retainedBytes()).isZero();
    }
  }

  @Test
  void theCarryJoinsTheHeadAndTailOfTheNextRead() {
    OutputWindow w = new OutputWindow(2, 4);
    write(w, 0xE2);
    assertThat(w.read()).isEmpty();
    write(w, 0x82, 0xAC);
    write(w, "abcd");
    assertThat(w.read()).isEqualTo("€abcd");
  }

  @Test
  void retainedBytesCountsHeadTailAndCarry() {
    OutputWindow w = new OutputWindow(2, 3);
    write(w, "abcdef");
    assertThat(w.retainedBytes()).isEqualTo(5);
    assertThat(w.read()).isEqualTo("ab\n[... 1 bytes omitted ...]\ndef");
    assertThat(w.retainedBytes()).isZero();
    write(w, 0xE2);
    assertThat(w.read()).isEmpty();
    write(w, "xy");
    assertThat(w.retainedBytes()).isEqualTo(3);
    write(w, "z");
    assertThat(w.retainedBytes()).isEqualTo(4);
  }
}
