package dev.horae.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.EcmaText;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.schedule.internal.UtcInstants;
import java.util.OptionalLong;

/**
 * The oracle for the streaming {@code schedule/change} decoder: the tree decoder
 * {@code ChangeCodec.decode(JsonNode)} was before it became a caller of the streaming one (spec
 * §3.2–§3.4, the same checks in the same order over a Jackson tree). Test code only; the fuzzer
 * checks that the production decoder gives the same change or the same error for every input.
 */
final class TreeChangeOracle {

  private TreeChangeOracle() {}

  static ScheduleChange decode(JsonNode payload) {
    if (!payload.isObject()) {
      throw corrupt("schedule/change payload must be an object");
    }
    JsonNode version = payload.get("version");
    if (version == null || !version.isNumber() || version.doubleValue() != 1.0) {
      throw corrupt("schedule/change version must be 1");
    }
    JsonNode operation = payload.get("operation");
    String op = operation != null && operation.isTextual() ? operation.textValue() : "";
    switch (op) {
      case "create" -> {
        if (!hasExactly(payload, "version", "operation", "schedule")) {
          throw corrupt("schedule create must contain exactly version, operation, and schedule");
        }
        return new ScheduleChange.Create(decodeRecord(payload.get("schedule")));
      }
      case "delete", "dispatch" -> {
        if (!hasExactly(payload, "version", "operation", "id")) {
          throw corrupt("schedule " + op + " must contain exactly version, operation, and id");
        }
        String id = decodeId(payload.get("id"));
        return op.equals("delete") ? new ScheduleChange.Delete(id) : new ScheduleChange.Dispatch(id);
      }
      default -> throw corrupt("schedule/change operation must be create, delete, or dispatch");
    }
  }

  private static ScheduleRecord decodeRecord(JsonNode schedule) {
    if (!schedule.isObject()) {
      throw corrupt("schedule record must be an object");
    }
    JsonNode kind = schedule.get("kind");
    String k = kind != null && kind.isTextual() ? kind.textValue() : "";
    switch (k) {
      case "after" -> {
        if (!hasExactly(schedule, "id", "kind", "prompt", "afterSeconds", "scheduledAt")) {
          throw corrupt(
              "after schedule must contain exactly id, kind, prompt, afterSeconds, and scheduledAt");
        }
        String prompt = decodePrompt(schedule.get("prompt"), "after");
        OptionalLong after = EcmaNumbers.positiveSafeInteger(schedule.get("afterSeconds"));
        if (after.isEmpty()) {
          throw corrupt("afterSeconds must be a positive safe integer");
        }
        String id = decodeId(schedule.get("id"));
        long at = decodeInstant(schedule.get("scheduledAt"));
        return new ScheduleRecord.After(id, prompt, after.getAsLong(), at);
      }
      case "at" -> {
        if (!hasExactly(schedule, "id", "kind", "prompt", "scheduledAt")) {
          throw corrupt("at schedule must contain exactly id, kind, prompt, and scheduledAt");
        }
        String prompt = decodePrompt(schedule.get("prompt"), "at");
        String id = decodeId(schedule.get("id"));
        long at = decodeInstant(schedule.get("scheduledAt"));
        return new ScheduleRecord.At(id, prompt, at);
      }
      default -> throw corrupt("v1 schedule kind must be \"after\" or \"at\"");
    }
  }

  private static String decodePrompt(JsonNode prompt, String kind) {
    if (!prompt.isTextual() || !EcmaText.isNonEmptyTrimmed(prompt.textValue())) {
      throw corrupt(kind + " prompt must be non-empty and already trimmed");
    }
    return prompt.textValue();
  }

  private static String decodeId(JsonNode id) {
    if (!id.isTextual() || !EcmaText.isNonEmptyTrimmed(id.textValue())) {
      throw corrupt("schedule id must be a non-empty string without surrounding whitespace");
    }
    return id.textValue();
  }

  private static long decodeInstant(JsonNode node) {
    if (!node.isTextual()) {
      throw corrupt("scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
    }
    String text = node.textValue();
    return switch (UtcInstants.classify(text)) {
      case CANONICAL -> UtcInstants.epochOfCanonical(text);
      case NOT_REAL -> throw corrupt("scheduledAt is not a real UTC calendar instant");
      case GRAMMAR ->
          throw corrupt("scheduledAt must be a canonical four-digit-year RFC 3339 UTC instant");
    };
  }

  /** Whether the object's member names are exactly {@code names} (each present once). */
  private static boolean hasExactly(JsonNode object, String... names) {
    if (object.size() != names.length) {
      return false;
    }
    for (String name : names) {
      if (!object.has(name)) {
        return false;
      }
    }
    // Jackson objects cannot hold duplicate names, so size plus membership is exact
    return true;
  }

  private static CorruptScheduleLogException corrupt(String message) {
    return new CorruptScheduleLogException(message);
  }
}
