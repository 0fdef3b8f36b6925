package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.internal.UtcInstants;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Spec §6.3 and §6.5 at their edges: the last representable millisecond is a valid target, and
 * the local form's object checks and field ranges each answer with their own message.
 */
class CreateRangeRulesTest {

  private static final long NOW = Instant.parse("2026-08-05T12:00:00Z").toEpochMilli();

  private static ScheduleResult<ScheduleRecord> after(long seconds, long now) {
    return CreateRequestTest.create("{\"prompt\":\"x\",\"after_seconds\":" + seconds + "}", now);
  }

  private static ScheduleResult<ScheduleRecord> localAt(String at) {
    return CreateRequestTest.create("{\"prompt\":\"x\",\"at\":" + at + "}", NOW);
  }

  private static void invalid(String at, ErrorCode code, String message) {
    CreateRequestTest.fails(localAt(at), code, message);
  }

  private static String scheduledAt(ScheduleResult<ScheduleRecord> r) {
    assertThat(r).isInstanceOf(ScheduleResult.Ok.class);
    return ((ScheduleResult.Ok<ScheduleRecord>) r).value().scheduledAt();
  }

  @Test
  void anAfterTargetOnTheLastRepresentableMillisecondIsAccepted() {
    // §6.3 rule 3 refuses target > 9999-12-31T23:59:59.999Z, so the instant itself is legal;
    // a clock ending in .999 reaches it exactly
    long now = NOW + 999;
    long seconds = (UtcInstants.MAX_MILLIS - now) / 1000;
    assertThat(scheduledAt(after(seconds, now))).isEqualTo("9999-12-31T23:59:59.999Z");
    CreateRequestTest.fails(after(seconds + 1, now), ErrorCode.TIME_OUT_OF_RANGE,
        ScheduleError.OUT_OF_RANGE_MESSAGE);
  }

  @Test
  void theLocalObjectHasExactlyDateTimeAndAnOptionalZone() {
    for (String at : new String[] {
        "{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"zone\":\"UTC\"}",
        "{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"time_zone\":\"UTC\",\"extra\":1}",
        "{\"date\":\"2026-08-06\",\"time_zone\":\"UTC\",\"extra\":1}",
        "{\"time\":\"09:00:00\",\"time_zone\":\"UTC\",\"extra\":1}",
        "{\"date\":\"2026-08-06\",\"time_zone\":\"UTC\"}"}) {
      invalid(at, ErrorCode.INVALID_RULE, ScheduleError.LOCAL_KEYS_MESSAGE);
    }
  }

  @Test
  void dateAndTimeMustBeStringsAndTheZoneTooWhenPresent() {
    invalid("{\"date\":20260806,\"time\":\"09:00:00\",\"time_zone\":\"UTC\"}",
        ErrorCode.INVALID_RULE, ScheduleError.LOCAL_TYPES_MESSAGE);
    invalid("{\"date\":\"2026-08-06\",\"time\":null,\"time_zone\":\"UTC\"}",
        ErrorCode.INVALID_RULE, ScheduleError.LOCAL_TYPES_MESSAGE);
    invalid("{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"time_zone\":0}",
        ErrorCode.INVALID_TIME_ZONE, ScheduleError.ZONE_TYPE_MESSAGE);
  }

  @Test
  void eachTimeFieldHasItsOwnUpperBound() {
    for (String time : new String[] {"24:00:00", "23:60:00", "23:59:60"}) {
      invalid("{\"date\":\"2026-08-06\",\"time\":\"" + time + "\",\"time_zone\":\"UTC\"}",
          ErrorCode.INVALID_RULE, ScheduleError.LOCAL_REAL_MESSAGE);
    }
    assertThat(scheduledAt(localAt("{\"date\":\"2026-08-06\",\"time\":\"23:59:59\",\"time_zone\":\"UTC\"}")))
        .isEqualTo("2026-08-06T23:59:59.000Z");
  }
}
