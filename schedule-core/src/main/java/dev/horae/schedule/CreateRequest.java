package dev.horae.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.schedule.internal.LocalAt;
import dev.horae.schedule.internal.Selectors;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@code schedule_create} input after its shape checks (spec §6.2 step 3), and record
 * building (steps 8–9, §6.3–§6.8).
 *
 * <p>The tool runs {@link #parse} before entering the per-agent queue and {@link #build} after
 * its preflight and fold; {@link #create} runs both in the tool's order without persistence.
 */
public final class CreateRequest {

  private static final Set<String> MEMBERS = Set.of("prompt", "after_seconds", "at");

  private final String prompt;
  private final OptionalLong afterSeconds;
  private final JsonNode at;

  private CreateRequest(String prompt, OptionalLong afterSeconds, JsonNode at) {
    this.prompt = prompt;
    this.afterSeconds = afterSeconds;
    this.at = at;
  }

  /**
   * The shape checks, in order: members and selector count ({@code invalid_selector}), prompt
   * ({@code invalid_prompt}), {@code after_seconds} ({@code invalid_rule}).
   *
   * @param input the tool arguments object
   * @return the request, or the first failing check's error value
   */
  public static ScheduleResult<CreateRequest> parse(JsonNode input) {
    if (!input.isObject()) {
      return error(ErrorCode.INVALID_SELECTOR, ScheduleError.INVALID_SELECTOR_MESSAGE);
    }
    for (Iterator<String> names = input.fieldNames(); names.hasNext(); ) {
      if (!MEMBERS.contains(names.next())) {
        return error(ErrorCode.INVALID_SELECTOR, ScheduleError.INVALID_SELECTOR_MESSAGE);
      }
    }
    boolean hasAfter = input.has("after_seconds");
    boolean hasAt = input.has("at");
    if (hasAfter == hasAt) {
      return error(ErrorCode.INVALID_SELECTOR, ScheduleError.INVALID_SELECTOR_MESSAGE);
    }
    JsonNode promptNode = input.path("prompt");
    String prompt = promptNode.isTextual() ? EcmaText.trim(promptNode.textValue()) : "";
    if (prompt.isEmpty()) {
      return error(ErrorCode.INVALID_PROMPT, ScheduleError.INVALID_PROMPT_MESSAGE);
    }
    if (hasAfter) {
      OptionalLong after = EcmaNumbers.positiveSafeInteger(input.get("after_seconds"));
      if (after.isEmpty()) {
        return error(ErrorCode.INVALID_RULE, ScheduleError.AFTER_SECONDS_MESSAGE);
      }
      return ScheduleResult.ok(new CreateRequest(prompt, after, MissingNode.getInstance()));
    }
    return ScheduleResult.ok(
        new CreateRequest(prompt, OptionalLong.empty(), input.get("at").deepCopy()));
  }

  /**
   * Builds the record with an allocated id and one clock sample (spec §6.2 step 9).
   *
   * @param id the allocated id
   * @param nowMillis the wall clock sampled once for this build
   * @param authority the implicit-zone decision; asked only for a local {@code at} without
   *     {@code time_zone}, so a caller may derive it lazily
   * @return the record, or the input error value (the log stays unchanged)
   */
  public ScheduleResult<ScheduleRecord> build(
      String id, long nowMillis, Supplier<ZoneAuthority> authority) {
    Objects.requireNonNull(id, "id");
    if (afterSeconds.isPresent()) {
      long seconds = afterSeconds.getAsLong();
      return Selectors.after(nowMillis, seconds)
          .map(target -> new ScheduleRecord.After(id, prompt, seconds, target));
    }
    ScheduleResult<Long> target;
    if (at.isTextual()) {
      target = Selectors.atString(at.textValue(), nowMillis);
    } else if (at.isObject()) {
      target = LocalAt.resolve(at, nowMillis, authority);
    } else {
      target = error(ErrorCode.INVALID_RULE, ScheduleError.AT_TYPE_MESSAGE);
    }
    return target.map(t -> new ScheduleRecord.At(id, prompt, t));
  }

  /**
   * {@code schedule.create}: the shape checks, id allocation and record building in the tool's
   * order, without persistence.
   *
   * @param input the tool arguments object
   * @param nowMillis the wall clock
   * @param seenIds the ids seen in the owned suffix
   * @param authority the implicit-zone decision
   * @return the new record, or the tool's error value
   */
  public static ScheduleResult<ScheduleRecord> create(
      JsonNode input, long nowMillis, Collection<String> seenIds, ZoneAuthority authority) {
    ScheduleResult<CreateRequest> request = parse(input);
    if (request instanceof ScheduleResult.Err<CreateRequest> err) {
      return ScheduleResult.err(err.error());
    }
    return ((ScheduleResult.Ok<CreateRequest>) request)
        .value()
        .build(ScheduleIds.allocate(seenIds), nowMillis, () -> authority);
  }

  /**
   * The trimmed prompt.
   *
   * @return the prompt as it will be stored
   */
  public String prompt() {
    return prompt;
  }

  /**
   * Whether the request uses the local {@code at} form without {@code time_zone}, the only case
   * that consults the implicit-zone authority.
   *
   * @return true when the authority will be asked
   */
  public boolean needsZoneAuthority() {
    return afterSeconds.isEmpty() && at.isObject() && !at.has("time_zone");
  }

  private static <T> ScheduleResult<T> error(ErrorCode code, String message) {
    return ScheduleResult.err(new ScheduleError.Basic(code, message));
  }
}
