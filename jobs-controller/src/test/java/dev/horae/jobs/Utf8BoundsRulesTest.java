package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * UTF-8 bounding (jobs spec §5.2, §5.3): byte counts at every encoding-length boundary, cuts that
 * never split a code point, the fit-with-suffix steps and the spec's worked examples.
 */
class Utf8BoundsRulesTest {

  @Test
  void bytesCountsEachEncodingLengthAtItsBoundaries() {
    for (String s : List.of("", "a", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\ud83d\ude00",
        "aé€😀", "\u0000")) {
      assertThat(Utf8Bounds.bytes(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
    // a lone surrogate is counted as the three bytes of the replacement character that encodes it
    assertThat(Utf8Bounds.bytes("\ud83d")).isEqualTo(3);
    assertThat(Utf8Bounds.bytes("x\ud83d")).isEqualTo(4);
    assertThat(Utf8Bounds.bytes("\ud83dx")).isEqualTo(4);
    assertThat(Utf8Bounds.bytes("\ude00")).isEqualTo(3);
    assertThat(Utf8Bounds.bytes("\ud83d\ude00\ud83d\ude00")).isEqualTo(8);
  }

  @Test
  void headKeepsWholeCharactersWithinTheBudget() {
    assertThat(Utf8Bounds.head("abc", 3)).isEqualTo("abc");
    assertThat(Utf8Bounds.head("abc", 2)).isEqualTo("ab");
    assertThat(Utf8Bounds.head("aé", 2)).isEqualTo("a");
    assertThat(Utf8Bounds.head("aé", 3)).isEqualTo("aé");
    assertThat(Utf8Bounds.head("€uro", 2)).isEmpty();
    assertThat(Utf8Bounds.head("😀!", 3)).isEmpty();
    assertThat(Utf8Bounds.head("😀!", 4)).isEqualTo("😀");
    assertThat(Utf8Bounds.head("abc", 0)).isEmpty();
  }

  @Test
  void tailKeepsWholeCharactersWithinTheBudget() {
    assertThat(Utf8Bounds.tail("abc", 3)).isEqualTo("abc");
    assertThat(Utf8Bounds.tail("abc", 2)).isEqualTo("bc");
    assertThat(Utf8Bounds.tail("éa", 2)).isEqualTo("a");
    assertThat(Utf8Bounds.tail("aé", 2)).isEqualTo("é");
    assertThat(Utf8Bounds.tail("é", 1)).isEmpty();
    assertThat(Utf8Bounds.tail("a😀", 3)).isEmpty();
    assertThat(Utf8Bounds.tail("abc", 0)).isEmpty();
  }

  @Test
  void fitWithSuffixFollowsItsFourSteps() {
    String read = Utf8Bounds.READ_MARKER;
    // 1. fits exactly: unchanged
    assertThat(Utf8Bounds.fitWithSuffix("abc", "\nxy", 6, read)).isEqualTo("abc\nxy");
    // 4. one byte over: the tail of the content, the marker and the whole suffix
    String cut = Utf8Bounds.fitWithSuffix("abcdefghijklmnopqrstuvwxyz0123", "", 28, read);
    assertThat(cut).isEqualTo("vwxyz0123" + read);
    assertThat(Utf8Bounds.bytes(cut)).isEqualTo(28);
    // 2. a marker already at the end of the content is reused, not repeated
    String produced = "0123456789[output truncated]";
    assertThat(Utf8Bounds.fitWithSuffix(produced, "\n[status: running]", 40, read))
        .isEqualTo("6789[output truncated]\n[status: running]");
    // 3. the marker and suffix alone reach the cap: their tail only
    assertThat(Utf8Bounds.fitWithSuffix("content", "\n[status: running]", 20, read))
        .isEqualTo("d]\n[status: running]");
    assertThat(Utf8Bounds.fitWithSuffix("x".repeat(30), "", 19, read)).isEqualTo(read);
  }

  @Test
  void theSpecsWorkedExamples() {
    assertThat(Utf8Bounds.fitWithSuffix("0123456789".repeat(3), "\n[status: running]", 47, Utf8Bounds.READ_MARKER))
        .isEqualTo("0123456789\n[output truncated]\n[status: running]");
    assertThat(Utf8Bounds.fitWithSuffix("p".repeat(1000), "", 64, Utf8Bounds.RESULT_MARKER))
        .isEqualTo("p".repeat(45) + "\n[result truncated]");
  }

  @Test
  void aCutKeepsNoHalfCharacterInTheKeptTail() {
    String bounded = Utf8Bounds.fitWithSuffix("€".repeat(10), "", 24, Utf8Bounds.RESULT_MARKER);
    assertThat(bounded).isEqualTo("€" + Utf8Bounds.RESULT_MARKER);
    assertThat(bounded).doesNotContain("\uFFFD");
  }
}
