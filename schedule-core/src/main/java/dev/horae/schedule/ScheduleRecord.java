package dev.horae.schedule;

import dev.horae.spi.json.EcmaNumbers;
import dev.horae.schedule.internal.UtcInstants;
import java.util.Objects;

/**
 * One reminder, as carried by a create change (spec §3.2–§3.3). Immutable.
 *
 * <p>Both kinds keep the canonical UTC target {@link #scheduledAt()} and its epoch value; an
 * {@code at} record stores nothing about the submitted offset, local fields or zone.
 */
public sealed interface ScheduleRecord permits ScheduleRecord.After, ScheduleRecord.At {

  /**
   * The session-local schedule id.
   *
   * @return a non-empty, already trimmed id
   */
  String id();

  /**
   * The trimmed prompt.
   *
   * @return a non-empty, already trimmed prompt
   */
  String prompt();

  /**
   * The canonical UTC target, {@code YYYY-MM-DDTHH:mm:ss.sssZ}.
   *
   * @return the canonical text
   */
  String scheduledAt();

  /**
   * The target in epoch milliseconds.
   *
   * @return epoch milliseconds equal to {@link #scheduledAt()}
   */
  long scheduledAtMillis();

  /**
   * The durable kind name.
   *
   * @return {@code after} or {@code at}
   */
  String kind();

  /**
   * A record created from a delay.
   *
   * @param id the schedule id
   * @param prompt the trimmed prompt
   * @param afterSeconds the delay, a positive safe integer
   * @param scheduledAtMillis the target in epoch milliseconds
   */
  record After(String id, String prompt, long afterSeconds, long scheduledAtMillis)
      implements ScheduleRecord {

    /**
     * Validates the record against the durable field rules.
     *
     * @param id as described on the record
     * @param prompt as described on the record
     * @param afterSeconds as described on the record
     * @param scheduledAtMillis as described on the record
     * @throws IllegalArgumentException when a field breaks a rule of spec §3.3
     */
    public After {
      checkCommon(id, prompt, scheduledAtMillis);
      if (afterSeconds < 1 || afterSeconds > EcmaNumbers.MAX_SAFE_INTEGER) {
        throw new IllegalArgumentException("afterSeconds must be a positive safe integer");
      }
    }

    @Override
    public String scheduledAt() {
      return UtcInstants.format(scheduledAtMillis);
    }

    @Override
    public String kind() {
      return "after";
    }
  }

  /**
   * A record created from an absolute target.
   *
   * @param id the schedule id
   * @param prompt the trimmed prompt
   * @param scheduledAtMillis the target in epoch milliseconds
   */
  record At(String id, String prompt, long scheduledAtMillis) implements ScheduleRecord {

    /**
     * Validates the record against the durable field rules.
     *
     * @param id as described on the record
     * @param prompt as described on the record
     * @param scheduledAtMillis as described on the record
     * @throws IllegalArgumentException when a field breaks a rule of spec §3.3
     */
    public At {
      checkCommon(id, prompt, scheduledAtMillis);
    }

    @Override
    public String scheduledAt() {
      return UtcInstants.format(scheduledAtMillis);
    }

    @Override
    public String kind() {
      return "at";
    }
  }

  private static void checkCommon(String id, String prompt, long scheduledAtMillis) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(prompt, "prompt");
    if (!EcmaText.isNonEmptyTrimmed(id)) {
      throw new IllegalArgumentException(
          "schedule id must be a non-empty string without surrounding whitespace");
    }
    if (!EcmaText.isNonEmptyTrimmed(prompt)) {
      throw new IllegalArgumentException("prompt must be non-empty and already trimmed");
    }
    if (!UtcInstants.inRange(scheduledAtMillis)) {
      throw new IllegalArgumentException(
          "scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
    }
  }
}
