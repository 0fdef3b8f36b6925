package dev.horae.schedule.internal;

import static dev.horae.schedule.ScheduleError.AT_REAL_DATE_MESSAGE;
import static dev.horae.schedule.ScheduleError.LOCAL_GAP_MESSAGE;
import static dev.horae.schedule.ScheduleError.LOCAL_KEYS_MESSAGE;
import static dev.horae.schedule.ScheduleError.LOCAL_REAL_MESSAGE;
import static dev.horae.schedule.ScheduleError.LOCAL_SHAPE_MESSAGE;
import static dev.horae.schedule.ScheduleError.LOCAL_TYPES_MESSAGE;
import static dev.horae.schedule.ScheduleError.ZONE_CANONICAL_MESSAGE;
import static dev.horae.schedule.ScheduleError.ZONE_NAME_MESSAGE;
import static dev.horae.schedule.ScheduleError.ZONE_RULES_MESSAGE;
import static dev.horae.schedule.ScheduleError.ZONE_TYPE_MESSAGE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.EcmaText;
import dev.horae.schedule.ErrorCode;
import dev.horae.schedule.ScheduleError;
import dev.horae.schedule.ScheduleResult;
import dev.horae.schedule.ZoneAuthority;
import dev.horae.spi.zone.ZoneResolver;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local {@code {date, time, time_zone?}} form of {@code at} (spec §6.5, §6.7, §16.5): the
 * object checks, zone selection (explicit or implicit), field grammar and ranges, zone
 * validation, wall-time resolution with gap rejection and earliest-in-overlap, then the
 * range-then-future check. The order of the steps decides which error wins.
 */
public final class LocalAt {

  private static final Pattern DATE = Pattern.compile("([0-9]{4})-([0-9]{2})-([0-9]{2})");
  private static final Pattern TIME =
      Pattern.compile("([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.([0-9]{1,3}))?");

  private LocalAt() {}

  /**
   * Resolves a local {@code at} object to its target.
   *
   * @param at the {@code at} object
   * @param nowMillis the sampled wall clock
   * @param authority the implicit-zone decision, consulted only when {@code time_zone} is absent
   * @return the target, or the first failing rule's error value
   */
  public static ScheduleResult<Long> resolve(
      JsonNode at, long nowMillis, Supplier<ZoneAuthority> authority) {
    boolean hasZone = at.has("time_zone");
    int expected = hasZone ? 3 : 2;
    if (at.size() != expected || !at.has("date") || !at.has("time")) {
      return Selectors.invalidRule(LOCAL_KEYS_MESSAGE);
    }
    if (!at.get("date").isTextual() || !at.get("time").isTextual()) {
      return Selectors.invalidRule(LOCAL_TYPES_MESSAGE);
    }
    String zoneName;
    if (hasZone) {
      JsonNode zone = at.get("time_zone");
      if (!zone.isTextual()) {
        return invalidZone(ZONE_TYPE_MESSAGE);
      }
      zoneName = zone.textValue();
    } else {
      ScheduleResult<String> decision = authority.get().decision();
      if (decision instanceof ScheduleResult.Err<String> err) {
        return ScheduleResult.err(err.error());
      }
      zoneName = ((ScheduleResult.Ok<String>) decision).value();
    }
    Matcher d = DATE.matcher(at.get("date").textValue());
    Matcher t = TIME.matcher(at.get("time").textValue());
    if (!d.matches() || !t.matches()) {
      return Selectors.invalidRule(LOCAL_SHAPE_MESSAGE);
    }
    int year = Integer.parseInt(d.group(1));
    int month = Integer.parseInt(d.group(2));
    int day = Integer.parseInt(d.group(3));
    int hour = Integer.parseInt(t.group(1));
    int minute = Integer.parseInt(t.group(2));
    int second = Integer.parseInt(t.group(3));
    if (year == 0 || hour > 23 || minute > 59 || second > 59) {
      return Selectors.invalidRule(LOCAL_REAL_MESSAGE);
    }
    if (!Selectors.isRealDate(year, month, day)) {
      return Selectors.invalidRule(AT_REAL_DATE_MESSAGE);
    }
    int millis = Selectors.fractionMillis(t.group(4));
    ScheduleResult<ZoneRules> rules = zoneRules(zoneName);
    if (rules instanceof ScheduleResult.Err<ZoneRules> err) {
      return ScheduleResult.err(err.error());
    }
    ZoneRules zoneRules = ((ScheduleResult.Ok<ZoneRules>) rules).value();
    LocalDateTime local = LocalDateTime.of(year, month, day, hour, minute, second);
    List<ZoneOffset> offsets = zoneRules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      return Selectors.invalidRule(LOCAL_GAP_MESSAGE);
    }
    Optional<Long> earliest =
        offsets.stream()
            .map(o -> local.toEpochSecond(o) * 1000L + millis)
            .filter(UtcInstants::inRange)
            .min(Long::compare);
    if (earliest.isEmpty()) {
      return Selectors.outOfRange();
    }
    return Selectors.rangeThenFuture(earliest.get(), nowMillis);
  }

  /**
   * Validates and canonicalizes a zone name (spec §6.7) and loads its rules.
   *
   * @param name the explicit or implicit zone name
   * @return the rules of the canonical zone, or an {@code invalid_time_zone} value
   */
  public static ScheduleResult<ZoneRules> zoneRules(String name) {
    if (!EcmaText.isNonEmptyTrimmed(name) || !ZoneResolver.hasAcceptedShape(name)) {
      return invalidZone(ZONE_NAME_MESSAGE);
    }
    ZoneResolver resolver = ZoneResolver.standard();
    Optional<String> canonical = resolver.canonicalName(name);
    if (canonical.isEmpty()) {
      return invalidZone(ZONE_NAME_MESSAGE);
    }
    if (!ZoneResolver.hasAcceptedShape(canonical.get())) {
      return invalidZone(ZONE_CANONICAL_MESSAGE);
    }
    Optional<ZoneRules> rules = resolver.rules(canonical.get());
    if (rules.isEmpty()) {
      return invalidZone(ZONE_RULES_MESSAGE);
    }
    return ScheduleResult.ok(rules.get());
  }

  private static <T> ScheduleResult<T> invalidZone(String message) {
    return ScheduleResult.err(new ScheduleError.Basic(ErrorCode.INVALID_TIME_ZONE, message));
  }
}
