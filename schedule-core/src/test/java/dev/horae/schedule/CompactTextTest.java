package dev.horae.schedule;

import dev.horae.schedule.internal.CompactText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fold's compact text gives back every string it holds, compares and hashes as the string. */
class CompactTextTest {

  @Test
  void narrowTextTakesOneByteACharacterAndWideTextTwo() {
    assertThat(CompactText.wide("schedule-12")).isFalse();
    assertThat(CompactText.of("schedule-12", false)).hasSize(11);
    assertThat(CompactText.wide("caf\u00e9\u00ff")).isFalse();
    assertThat(CompactText.wide("\u0100")).isTrue();
    assertThat(CompactText.of("a\u20acb", true)).hasSize(6);
  }

  @Test
  void everyStringRoundTripsComparesAndHashesAsItself() {
    SplittableRandom random = new SplittableRandom(19);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder b = new StringBuilder();
      int len = random.nextInt(12);
      int range = random.nextBoolean() ? 0x100 : 0x10000;
      for (int i = 0; i < len; i++) {
        // every char value, lone surrogates included
        b.append((char) random.nextInt(range));
      }
      String s = b.toString();
      boolean wide = CompactText.wide(s);
      byte[] bytes = CompactText.of(s, wide);
      assertThat(CompactText.text(bytes, wide)).isEqualTo(s);
      assertThat(CompactText.equals(bytes, wide, s)).isTrue();
      assertThat(CompactText.hash(bytes, wide)).isEqualTo(s.hashCode());
      assertThat(CompactText.equals(bytes, wide, s + "x")).isFalse();
      if (!s.isEmpty()) {
        String other = s.substring(0, s.length() - 1) + (char) (s.charAt(s.length() - 1) ^ 1);
        assertThat(CompactText.equals(bytes, wide, other)).isFalse();
      }
    }
  }
}
