package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.schedule.internal.UtcInstants;
import dev.horae.schedule.internal.UtcInstants.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Spec §3.3 and §16.7, character by character: a stored {@code scheduledAt} is exactly
 * {@code YYYY-MM-DDTHH:mm:ss.sssZ} with every field in range, and anything else is refused by
 * the grammar (or, for a date the calendar lacks, by the round trip) before it can reach the fold.
 */
class InstantGrammarTest {

  private static final String SAMPLE = "2026-07-15T13:45:27.318Z";
  private static final int[] SEPARATORS = {4, 7, 10, 13, 16, 19, 23};

  @Test
  void everySeparatorIsRequiredAtItsPlace() {
    for (int at : SEPARATORS) {
      for (char other : new char[] {'0', 'x', ' ', '-', ':', '.'}) {
        if (other == SAMPLE.charAt(at)) {
          continue;
        }
        refused(Verdict.GRAMMAR, replace(SAMPLE, at, other));
      }
    }
  }

  @Test
  void everyDigitPositionRefusesTheCharactersJustOutsideTheDigits() {
    // '/' and ':' sit right below '0' and right above '9'; in the last digit of a field they
    // would still add up to an in-range value (…1/ reads as 9, …0: as 10), so only the
    // character check itself can refuse them.
    for (int at = 0; at < SAMPLE.length(); at++) {
      if (isSeparator(at)) {
        continue;
      }
      for (char bad : new char[] {'/', ':', 'x', ' ', '+'}) {
        refused(Verdict.GRAMMAR, replace(SAMPLE, at, bad));
      }
    }
  }

  @Test
  void aNonDigitInAnyTimeFieldIsRefusedEvenWhereZeroWouldBeInRange() {
    refused(Verdict.GRAMMAR,
        "2026-07-15Tx3:45:27.318Z",
        "2026-07-15T13:x5:27.318Z",
        "2026-07-15T13:45:x7.318Z",
        "2026-07-15T13:45:27.x18Z",
        "2026-07-15T13:45:27.31xZ");
  }

  @Test
  void fieldRangesAreGrammarAndTheirEdgesAreCanonical() {
    refused(Verdict.GRAMMAR,
        "0000-01-01T00:00:00.000Z",
        "2026-00-01T00:00:00.000Z",
        "2026-13-01T00:00:00.000Z",
        "2026-01-00T00:00:00.000Z",
        "2026-01-32T00:00:00.000Z",
        "2026-01-01T24:00:00.000Z",
        "2026-01-01T00:60:00.000Z",
        "2026-01-01T00:00:60.000Z");
    for (String text : new String[] {
        "0001-01-01T00:00:00.000Z",
        "2026-12-31T23:59:59.999Z",
        "2026-01-31T00:00:00.000Z",
        "2024-02-29T12:00:00.000Z",
        "2000-02-29T12:00:00.000Z"}) {
      assertThat(UtcInstants.classify(text)).as(text).isEqualTo(Verdict.CANONICAL);
      assertThat(UtcInstants.format(UtcInstants.parse(text).orElseThrow())).isEqualTo(text);
    }
  }

  @Test
  void aDateTheCalendarLacksFailsTheRoundTripNotTheGrammar() {
    refused(Verdict.NOT_REAL,
        "2026-02-30T00:00:00.000Z",
        "2026-02-29T00:00:00.000Z",
        "1900-02-29T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z",
        "2026-06-31T00:00:00.000Z",
        "2026-09-31T00:00:00.000Z",
        "2026-11-31T00:00:00.000Z");
  }

  @Test
  void theLengthIsExactlyTwentyFourCharacters() {
    refused(Verdict.GRAMMAR,
        SAMPLE.substring(0, 23),
        SAMPLE + "Z",
        "2026-07-15T13:45:27.31Z",
        "2026-07-15T13:45:27.3180Z");
  }

  @Test
  void onlyFourDigitYearInstantsCanBeFormattedOrStored() {
    assertThat(UtcInstants.inRange(UtcInstants.MIN_MILLIS)).isTrue();
    assertThat(UtcInstants.inRange(UtcInstants.MAX_MILLIS)).isTrue();
    assertThat(UtcInstants.inRange(UtcInstants.MIN_MILLIS - 1)).isFalse();
    assertThat(UtcInstants.inRange(UtcInstants.MAX_MILLIS + 1)).isFalse();
    assertThatThrownBy(() -> UtcInstants.format(UtcInstants.MIN_MILLIS - 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UtcInstants.format(UtcInstants.MAX_MILLIS + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScheduleRecord.At("schedule-1", "p", UtcInstants.MAX_MILLIS + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScheduleRecord.After("schedule-1", "p", 1, UtcInstants.MIN_MILLIS - 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Each text gets the verdict, and so is no parsable instant. */
  private static void refused(Verdict verdict, String... texts) {
    for (String text : texts) {
      assertThat(UtcInstants.classify(text)).as(text).isEqualTo(verdict);
      assertThat(UtcInstants.parse(text)).as(text).isEmpty();
    }
  }

  private static boolean isSeparator(int at) {
    for (int s : SEPARATORS) {
      if (s == at) {
        return true;
      }
    }
    return false;
  }

  private static String replace(String text, int at, char c) {
    return text.substring(0, at) + c + text.substring(at + 1);
  }
}
