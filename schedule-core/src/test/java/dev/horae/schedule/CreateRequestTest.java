package dev.horae.schedule;

import static dev.horae.schedule.Logs.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Spec §6.2 step 3 and 8–9, §6.3–§6.8, §16.2, §16.5, §16.6: shape checks and record building. */
class CreateRequestTest {

  private static final long NOW = Instant.parse("2026-08-05T12:00:00Z").toEpochMilli();
  private static final ZoneAuthority NEW_YORK =
      ZoneAuthority.reduced(Optional.of("America/New_York"), List.of("America/New_York"));

  static ScheduleResult<ScheduleRecord> create(String input, long now) {
    return CreateRequest.create(json(input), now, List.of(), ZoneAuthority.none());
  }

  private static ScheduleResult<ScheduleRecord> local(String date, String time, String zone, long now) {
    return create("{\"prompt\":\"x\",\"at\":{\"date\":\"" + date + "\",\"time\":\"" + time
        + "\",\"time_zone\":\"" + zone + "\"}}", now);
  }

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static String target(ScheduleResult<ScheduleRecord> r) {
    assertThat(r).isInstanceOf(ScheduleResult.Ok.class);
    return ((ScheduleResult.Ok<ScheduleRecord>) r).value().scheduledAt();
  }

  static void fails(ScheduleResult<ScheduleRecord> r, ErrorCode code, String message) {
    assertThat(r).isInstanceOf(ScheduleResult.Err.class);
    ScheduleError e = ((ScheduleResult.Err<ScheduleRecord>) r).error();
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.message()).isEqualTo(message);
  }

  @Test
  void selectorCountAndUnknownMembersComeFirst() {
    for (String input : new String[] {"{\"prompt\":\" \"}", "{\"prompt\":\"x\",\"after_seconds\":1,\"at\":\"x\"}",
        "{\"prompt\":\"x\",\"every_seconds\":300}", "{\"prompt\":\" \",\"after_seconds\":0,\"title\":\"t\"}",
        "[]"}) {
      fails(create(input, NOW), ErrorCode.INVALID_SELECTOR, ScheduleError.INVALID_SELECTOR_MESSAGE);
    }
  }

  @Test
  void promptBeforeAfterSecondsAndPromptIsStoredTrimmed() {
    fails(create("{\"prompt\":\"\\u3000\",\"after_seconds\":0}", NOW), ErrorCode.INVALID_PROMPT,
        ScheduleError.INVALID_PROMPT_MESSAGE);
    fails(create("{\"prompt\":7,\"after_seconds\":1}", NOW), ErrorCode.INVALID_PROMPT,
        ScheduleError.INVALID_PROMPT_MESSAGE);
    fails(create("{\"after_seconds\":1}", NOW), ErrorCode.INVALID_PROMPT,
        ScheduleError.INVALID_PROMPT_MESSAGE);
    ScheduleResult<ScheduleRecord> r = create("{\"prompt\":\"\\ufeff x \\u00a0\",\"after_seconds\":1}", NOW);
    assertThat(((ScheduleResult.Ok<ScheduleRecord>) r).value().prompt()).isEqualTo("x");
  }

  @Test
  void afterSecondsIsAPositiveSafeIntegerReadAsADouble() {
    for (String n : new String[] {"0", "-0", "-5", "1.5", "\"30\"", "null", "9007199254740992"}) {
      fails(create("{\"prompt\":\"x\",\"after_seconds\":" + n + "}", NOW), ErrorCode.INVALID_RULE,
          ScheduleError.AFTER_SECONDS_MESSAGE);
    }
    for (String n : new String[] {"30", "30.0", "3e1", "30.0000000000000001"}) {
      assertThat(target(create("{\"prompt\":\"x\",\"after_seconds\":" + n + "}", NOW)))
          .isEqualTo("2026-08-05T12:00:30.000Z");
    }
  }

  @Test
  void afterRangeHasNoSeparateCap() {
    assertThat(target(create("{\"prompt\":\"x\",\"after_seconds\":251616369599}", NOW)))
        .isEqualTo("9999-12-31T23:59:59.000Z");
    String oor = ScheduleError.OUT_OF_RANGE_MESSAGE;
    fails(create("{\"prompt\":\"x\",\"after_seconds\":251616369600}", NOW), ErrorCode.TIME_OUT_OF_RANGE, oor);
    fails(create("{\"prompt\":\"x\",\"after_seconds\":9007199254740991}", NOW), ErrorCode.TIME_OUT_OF_RANGE, oor);
    // a clock beyond the safe range is out of range too
    fails(create("{\"prompt\":\"x\",\"after_seconds\":1}", Long.MAX_VALUE / 2), ErrorCode.TIME_OUT_OF_RANGE, oor);
  }

  @Test
  void atStringGrammarAndFieldChecks() {
    String shape = ScheduleError.AT_SHAPE_MESSAGE;
    for (String bad : new String[] {"2026-08-06T01:00:00", "2026-08-06 01:00:00Z", "2026-08-06t01:00:00z",
        "2026-08-06T01:00Z", "+002026-08-06T01:00:00Z", "2026-08-06T01:00:00.1234Z", "2026-08-06T01:00:00,1Z",
        "2026-08-06T01:00:00+0800", "2026-08-06T1:00:00Z", "later"}) {
      fails(create("{\"prompt\":\"x\",\"at\":\"" + bad + "\"}", NOW), ErrorCode.INVALID_RULE, shape);
    }
    for (String bad : new String[] {"0000-01-01T00:00:00Z", "2026-08-06T24:00:00Z", "2026-08-06T01:60:00Z",
        "2026-08-06T01:00:60Z", "2026-02-30T01:00:00Z", "2027-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z"}) {
      fails(create("{\"prompt\":\"x\",\"at\":\"" + bad + "\"}", NOW), ErrorCode.INVALID_RULE,
          ScheduleError.AT_REAL_DATE_MESSAGE);
    }
    for (String bad : new String[] {"2026-08-06T01:00:00-00:00", "2026-08-06T01:00:00+24:00",
        "2026-08-06T01:00:00+01:60"}) {
      fails(create("{\"prompt\":\"x\",\"at\":\"" + bad + "\"}", NOW), ErrorCode.INVALID_RULE,
          ScheduleError.AT_OFFSET_MESSAGE);
    }
  }

  @Test
  void atStringFractionsAndOffsets() {
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-06T01:00:00.1Z\"}", NOW))).endsWith(".100Z");
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-06T01:00:00.12Z\"}", NOW))).endsWith(".120Z");
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-06T01:00:00+00:00\"}", NOW)))
        .isEqualTo("2026-08-06T01:00:00.000Z");
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-06T23:59:00+23:59\"}", NOW)))
        .isEqualTo("2026-08-06T00:00:00.000Z");
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-05T20:30:00-05:30\"}", NOW)))
        .isEqualTo("2026-08-06T02:00:00.000Z");
  }

  @Test
  void rangeComesBeforeFuture() {
    fails(create("{\"prompt\":\"x\",\"at\":\"0001-01-01T00:00:00+00:01\"}", NOW), ErrorCode.TIME_OUT_OF_RANGE,
        ScheduleError.OUT_OF_RANGE_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":\"9999-12-31T23:59:59.999-00:01\"}", NOW), ErrorCode.TIME_OUT_OF_RANGE,
        ScheduleError.OUT_OF_RANGE_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":\"2026-08-05T12:00:00Z\"}", NOW), ErrorCode.NOT_FUTURE,
        ScheduleError.NOT_FUTURE_MESSAGE);
    assertThat(target(create("{\"prompt\":\"x\",\"at\":\"2026-08-05T12:00:00.001Z\"}", NOW)))
        .isEqualTo("2026-08-05T12:00:00.001Z");
  }

  @Test
  void atOfAnotherTypeIsRejectedInCore() {
    fails(create("{\"prompt\":\"x\",\"at\":5}", NOW), ErrorCode.INVALID_RULE, ScheduleError.AT_TYPE_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":null}", NOW), ErrorCode.INVALID_RULE, ScheduleError.AT_TYPE_MESSAGE);
  }

  @Test
  void localObjectChecksInOrder() {
    fails(create("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\"}}", NOW), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_KEYS_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"zone\":\"UTC\"}}", NOW),
        ErrorCode.INVALID_RULE, ScheduleError.LOCAL_KEYS_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":{\"date\":20260806,\"time\":\"09:00:00\"}}", NOW), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_TYPES_MESSAGE);
    fails(create("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"time_zone\":8}}", NOW),
        ErrorCode.INVALID_TIME_ZONE, ScheduleError.ZONE_TYPE_MESSAGE);
    fails(local("2026-8-06", "09:00:00", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.LOCAL_SHAPE_MESSAGE);
    fails(local("2026-08-06", "9:00:00", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.LOCAL_SHAPE_MESSAGE);
    fails(local("2026-08-06", "09:00:00Z", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.LOCAL_SHAPE_MESSAGE);
    fails(local("0000-08-06", "09:00:00", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.LOCAL_REAL_MESSAGE);
    fails(local("2026-08-06", "09:60:00", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.LOCAL_REAL_MESSAGE);
    fails(local("2026-13-06", "09:00:00", "UTC", NOW), ErrorCode.INVALID_RULE, ScheduleError.AT_REAL_DATE_MESSAGE);
    // the date error wins over the zone error; the zone error wins over not_future
    fails(local("2026-02-30", "09:00:00", "CST", NOW), ErrorCode.INVALID_RULE, ScheduleError.AT_REAL_DATE_MESSAGE);
    fails(local("2020-01-01", "00:00:00", "Not/A_Real_Zone", NOW), ErrorCode.INVALID_TIME_ZONE,
        ScheduleError.ZONE_NAME_MESSAGE);
  }

  @Test
  void zoneNamesOfTheSpecTable() {
    assertThat(target(local("2026-08-06", "09:00:00", "UTC", NOW))).isEqualTo("2026-08-06T09:00:00.000Z");
    assertThat(target(local("2026-08-06", "09:00:00", "Etc/UTC", NOW))).isEqualTo("2026-08-06T09:00:00.000Z");
    assertThat(target(local("2026-08-06", "09:00:00", "US/Eastern", NOW))).isEqualTo("2026-08-06T13:00:00.000Z");
    assertThat(target(local("2026-08-06", "09:00:00", "Etc/GMT+5", NOW))).isEqualTo("2026-08-06T14:00:00.000Z");
    assertThat(target(local("2026-08-06", "09:00:00", "asia/shanghai", NOW))).isEqualTo("2026-08-06T01:00:00.000Z");
    for (String bad : new String[] {"utc", "GMT", "CST", "PST", "+08:00", " UTC", "", "Not/A_Real_Zone",
        "Asia/Shanghai\u00a0"}) {
      fails(local("2026-08-06", "09:00:00", bad, NOW), ErrorCode.INVALID_TIME_ZONE, ScheduleError.ZONE_NAME_MESSAGE);
    }
  }

  @Test
  void newYorkGapAndOverlap() {
    long jan = at("2026-01-01T00:00:00Z");
    fails(local("2026-03-08", "02:30:00", "America/New_York", jan), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_GAP_MESSAGE);
    assertThat(target(local("2026-03-08", "03:00:00", "America/New_York", jan))).isEqualTo("2026-03-08T07:00:00.000Z");
    assertThat(target(local("2026-11-01", "01:30:00", "America/New_York", NOW))).isEqualTo("2026-11-01T05:30:00.000Z");
  }

  @Test
  void londonGapAndOverlap() {
    assertThat(target(local("2026-10-25", "01:30:00", "Europe/London", NOW))).isEqualTo("2026-10-25T00:30:00.000Z");
    fails(local("2027-03-28", "01:30:00", "Europe/London", NOW), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_GAP_MESSAGE);
  }

  @Test
  void lordHoweThirtyMinuteShift() {
    fails(local("2026-10-04", "02:15:00", "Australia/Lord_Howe", NOW), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_GAP_MESSAGE);
    assertThat(target(local("2026-10-04", "02:30:00", "Australia/Lord_Howe", NOW)))
        .isEqualTo("2026-10-03T15:30:00.000Z");
    assertThat(target(local("2027-04-04", "01:45:00", "Australia/Lord_Howe", NOW)))
        .isEqualTo("2027-04-03T14:45:00.000Z");
  }

  @Test
  void apiaSkippedADay() {
    long before = at("2011-12-01T00:00:00Z");
    fails(local("2011-12-30", "12:00:00", "Pacific/Apia", before), ErrorCode.INVALID_RULE,
        ScheduleError.LOCAL_GAP_MESSAGE);
    assertThat(target(local("2011-12-29", "23:59:59.999", "Pacific/Apia", before)))
        .isEqualTo("2011-12-30T09:59:59.999Z");
    assertThat(target(local("2011-12-31", "00:00:00", "Pacific/Apia", before)))
        .isEqualTo("2011-12-30T10:00:00.000Z");
  }

  @Test
  void localRangeEdgesAndProlepticGregorian() {
    fails(local("9999-12-31", "23:59:59.999", "America/New_York", NOW), ErrorCode.TIME_OUT_OF_RANGE,
        ScheduleError.OUT_OF_RANGE_MESSAGE);
    assertThat(target(local("9999-12-31", "23:59:59.999", "Asia/Tokyo", NOW))).isEqualTo("9999-12-31T14:59:59.999Z");
    fails(local("0001-01-01", "00:00:00", "Asia/Tokyo", NOW), ErrorCode.TIME_OUT_OF_RANGE,
        ScheduleError.OUT_OF_RANGE_MESSAGE);
    fails(local("1582-10-10", "12:00:00", "UTC", NOW), ErrorCode.NOT_FUTURE, ScheduleError.NOT_FUTURE_MESSAGE);
  }

  @Test
  void implicitZoneIsAskedOnlyForALocalAtWithoutZoneAndBeforeTheFields() {
    AtomicInteger asked = new AtomicInteger();
    ScheduleResult<CreateRequest> parsed = CreateRequest.parse(json(
        "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-02-30\",\"time\":\"09:00:00\"}}"));
    CreateRequest request = ((ScheduleResult.Ok<CreateRequest>) parsed).value();
    assertThat(request.needsZoneAuthority()).isTrue();
    fails(request.build("schedule-1", NOW, () -> {
      asked.incrementAndGet();
      return ZoneAuthority.none();
    }), ErrorCode.TIMEZONE_CONFIRMATION_REQUIRED, ScheduleError.ZONE_CONFIRMATION_MESSAGE);
    assertThat(asked).hasValue(1);
    CreateRequest explicit = ((ScheduleResult.Ok<CreateRequest>) CreateRequest.parse(json(
        "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"time_zone\":\"UTC\"}}"))).value();
    assertThat(explicit.needsZoneAuthority()).isFalse();
    explicit.build("schedule-1", NOW, () -> {
      throw new AssertionError("must not be asked");
    });
  }

  @Test
  void confirmedImplicitZoneBehavesLikeTheExplicitZone() {
    ScheduleResult<ScheduleRecord> r = CreateRequest.create(
        json("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-11-01\",\"time\":\"01:30:00\"}}"), NOW, List.of(), NEW_YORK);
    assertThat(target(r)).isEqualTo("2026-11-01T05:30:00.000Z");
    ScheduleResult<ScheduleRecord> gap = CreateRequest.create(
        json("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-03-08\",\"time\":\"02:30:00\"}}"),
        at("2026-01-01T00:00:00Z"), List.of(), NEW_YORK);
    fails(gap, ErrorCode.INVALID_RULE, ScheduleError.LOCAL_GAP_MESSAGE);
  }

  @Test
  void reducedAuthorityDecisions() {
    assertThat(ZoneAuthority.reduced(Optional.of("US/Eastern"), List.of("America/New_York")))
        .isEqualTo(new ZoneAuthority.Confirmed("America/New_York"));
    assertThat(ZoneAuthority.reduced(Optional.of("Asia/Shanghai"), List.of("Asia/Shanghai", "Asia/Shanghai")))
        .isEqualTo(new ZoneAuthority.Confirmed("Asia/Shanghai"));
    assertThat(ZoneAuthority.reduced(Optional.empty(), List.of("Asia/Shanghai")))
        .isEqualTo(new ZoneAuthority.Unconfirmed("unavailable", List.of("Asia/Shanghai")));
    assertThat(ZoneAuthority.reduced(Optional.of("Europe/London"), List.of("Europe/London", "America/New_York")))
        .isEqualTo(new ZoneAuthority.Unconfirmed("Europe/London", List.of("America/New_York", "Europe/London")));
    assertThat(ZoneAuthority.reduced(Optional.of("Europe/Amsterdam"), List.of("Europe/Brussels")))
        .isInstanceOf(ZoneAuthority.Unconfirmed.class);
    assertThat(ZoneAuthority.reduced(Optional.of("Not/Known"), List.of("Not/Known")))
        .isInstanceOf(ZoneAuthority.Unconfirmed.class);
  }

  @Test
  void idComesFromTheSeenIds() {
    ScheduleResult<ScheduleRecord> r = CreateRequest.create(json("{\"prompt\":\"x\",\"after_seconds\":1}"), NOW,
        List.of("schedule-1", "schedule-2"), ZoneAuthority.none());
    assertThat(((ScheduleResult.Ok<ScheduleRecord>) r).value().id()).isEqualTo("schedule-3");
  }
}
