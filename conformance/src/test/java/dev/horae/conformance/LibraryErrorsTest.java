package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arguments whose rejection the specification gives to the library reach the library, and its own
 * error comes back: the runner does not turn them into "unusable args". Only a case that lacks a
 * required argument, or describes something no log can hold, stays unusable.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LibraryErrorsTest {

  private static final String SEED =
      "{\"error\":{\"code\":\"corrupt_schedule_log\",\"message\":\"schedule seedLength must be within the supplied event log\"}}";
  private static final String SEQ =
      "{\"error\":{\"code\":\"corrupt_schedule_log\",\"message\":\"schedule presentation seq must be a non-negative safe integer\"}}";
  private static final String CREATE =
      "{\"seq\":0,\"type\":\"schedule/change\",\"data\":{\"version\":1,\"operation\":\"create\",\"schedule\":"
          + "{\"id\":\"r\",\"kind\":\"after\",\"prompt\":\"p\",\"afterSeconds\":30,\"scheduledAt\":\"2026-08-05T12:00:00.000Z\"}}}";
  private static final String DISPATCH =
      "{\"seq\":1,\"type\":\"schedule/change\",\"data\":{\"version\":1,\"operation\":\"dispatch\",\"id\":\"r\"}}";

  @TempDir Path dir;

  private final List<String> failures = new ArrayList<>();

  private Report run(String... lines) throws IOException {
    Path file = dir.resolve("cases.jsonl");
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return ConformanceRunner.standard(List.of()).run(List.of(file), failures::add);
  }

  private static String fold(String id, String seedLength, String expect) {
    return "{\"id\":\"" + id + "\",\"suite\":\"schedule\",\"fn\":\"schedule.fold\",\"args\":{\"events\":[" + CREATE
        + "],\"seedLength\":" + seedLength + "},\"expect\":" + expect + "}";
  }

  private static String presentation(String id, String dispatchSeq, String seedLength, String expect) {
    return "{\"id\":\"" + id + "\",\"suite\":\"schedule\",\"fn\":\"schedule.presentation\",\"args\":{\"events\":["
        + CREATE + "," + DISPATCH + "],\"dispatchSeq\":" + dispatchSeq + ",\"seedLength\":" + seedLength
        + "},\"expect\":" + expect + "}";
  }

  @Test
  void aSeedLengthThatIsNotASafeIntegerFailsTheFoldsOwnCheck() throws IOException {
    Report report = run(
        fold("fraction", "1.5", SEED),
        fold("string", "\"1\"", SEED),
        fold("boolean", "true", SEED),
        fold("nan", "{\"$number\":\"NaN\"}", SEED),
        fold("infinity", "{\"$number\":\"Infinity\"}", SEED),
        fold("unsafe", "9007199254740992", SEED),
        fold("huge", "1e300", SEED),
        fold("negative", "-1", SEED),
        // an integral double is an integer (spec §16.2), and null is the absent default 0
        fold("integral", "1.0", "{\"value\":{\"active\":[],\"seenIds\":[]}}"),
        fold("null", "null",
            "{\"value\":{\"active\":[{\"id\":\"r\",\"kind\":\"after\",\"prompt\":\"p\",\"afterSeconds\":30,"
                + "\"scheduledAt\":\"2026-08-05T12:00:00.000Z\"}],\"seenIds\":[\"r\"]}}"));

    assertThat(failures).isEmpty();
    assertThat(report.passed()).isEqualTo(10);
  }

  @Test
  void presentationArgumentsFailThePresentationsOwnChecksInOrder() throws IOException {
    String found = "{\"value\":{\"scheduleId\":\"r\",\"prompt\":\"p\",\"occurrenceAt\":\"2026-08-05T12:00:00.000Z\"}}";
    Report report = run(
        presentation("seq-fraction", "0.5", "0", SEQ),
        presentation("seq-string", "\"1\"", "0", SEQ),
        presentation("seq-null", "null", "0", SEQ),
        presentation("seq-nan", "{\"$number\":\"NaN\"}", "0", SEQ),
        presentation("seq-unsafe", "9007199254740992", "0", SEQ),
        presentation("seq-negative", "-1", "0", SEQ),
        // the seq check runs before the seedLength check
        presentation("both", "1.5", "\"x\"", SEQ),
        presentation("seed-fraction", "1", "0.5", SEED),
        presentation("seed-infinity", "1", "{\"$number\":\"-Infinity\"}", SEED),
        presentation("integral", "1.0", "0.0", found),
        presentation("seed-null", "1", "null", found));

    assertThat(failures).isEmpty();
    assertThat(report.passed()).isEqualTo(11);
  }

  @Test
  void aNullPayloadAndANonObjectInputReachTheirDecoders() throws IOException {
    Report report = run(
        "{\"id\":\"null-change\",\"suite\":\"schedule\",\"fn\":\"schedule.fold\",\"args\":{\"events\":["
            + "{\"type\":\"schedule/change\",\"data\":null}]},\"expect\":{\"error\":{\"code\":\"corrupt_schedule_log\","
            + "\"message\":\"schedule/change payload must be an object\"}}}",
        "{\"id\":\"null-input\",\"suite\":\"schedule\",\"fn\":\"schedule.create\",\"args\":{\"input\":null,"
            + "\"now\":\"2026-08-05T12:00:00.000Z\"},\"expect\":{\"error\":{\"code\":\"invalid_selector\","
            + "\"message\":\"schedule_create accepts exactly one of after_seconds or at.\"}}}",
        "{\"id\":\"array-input\",\"suite\":\"schedule\",\"fn\":\"schedule.create\",\"args\":{\"input\":[],"
            + "\"now\":\"2026-08-05T12:00:00.000Z\"},\"expect\":{\"error\":{\"code\":\"invalid_selector\"}}}");

    assertThat(failures).isEmpty();
    assertThat(report.passed()).isEqualTo(3);
  }

  @Test
  void resumeValuesTheDecodersRefuseAreTheDecodersErrors() throws IOException {
    String ticket = "{\"correlationId\":\"c1\",\"runId\":\"run-1\",\"threadId\":\"thread-1\",\"snapshotId\":\"snap-1\","
        + "\"catalogFingerprint\":\"fp-1\",\"target\":{\"type\":\"toolCall\",\"reason\":\"permission\",\"callId\":\"call-1\","
        + "\"tool\":{\"toolId\":\"tool-1\",\"arguments\":{}}}}";
    String identity = "\"correlationId\":\"c1\",\"runId\":\"run-1\",\"threadId\":\"thread-1\",\"snapshotId\":\"snap-1\","
        + "\"catalogFingerprint\":\"fp-1\",\"nowMs\":0";
    Report report = run(
        "{\"id\":\"deny-note\",\"suite\":\"gate\",\"fn\":\"gate.validateResume\",\"args\":{\"ticket\":" + ticket
            + ",\"command\":{" + identity + ",\"result\":{\"type\":\"permission\",\"decision\":\"deny\",\"note\":\"n\"}}},"
            + "\"expect\":{\"error\":{\"message\":\"permission decision \\\"deny\\\" does not take \\\"note\\\"\"}}}",
        "{\"id\":\"allow-reason\",\"suite\":\"gate\",\"fn\":\"gate.validateResume\",\"args\":{\"ticket\":" + ticket
            + ",\"command\":{" + identity + ",\"result\":{\"type\":\"permission\",\"decision\":\"allow\",\"reason\":\"r\"}}},"
            + "\"expect\":{\"error\":{\"message\":\"permission decision \\\"allow\\\" does not take \\\"reason\\\"\"}}}",
        "{\"id\":\"empty-run\",\"suite\":\"gate\",\"fn\":\"gate.validateResume\",\"args\":{\"ticket\":"
            + ticket.replace("\"runId\":\"run-1\"", "\"runId\":\"\"") + ",\"command\":{" + identity
            + ",\"result\":{\"type\":\"permission\",\"decision\":\"allow\"}}},"
            + "\"expect\":{\"error\":{\"message\":\"resume ticket field \\\"runId\\\" must be a non-empty string\"}}}");

    assertThat(failures).isEmpty();
    assertThat(report.passed()).isEqualTo(3);
  }

  @Test
  void missingArgumentsAndImpossibleEventsStayUnusable() throws IOException {
    Report report = run(
        "{\"id\":\"no-seq\",\"suite\":\"schedule\",\"fn\":\"schedule.presentation\",\"args\":{\"events\":[]},"
            + "\"expect\":" + SEQ + "}",
        "{\"id\":\"no-data\",\"suite\":\"schedule\",\"fn\":\"schedule.fold\",\"args\":{\"events\":["
            + "{\"type\":\"schedule/change\"}]},\"expect\":" + SEED + "}",
        "{\"id\":\"negative-event-seq\",\"suite\":\"schedule\",\"fn\":\"schedule.fold\",\"args\":{\"events\":["
            + "{\"seq\":-1,\"type\":\"turn/start\",\"data\":{}}]},\"expect\":" + SEED + "}");

    assertThat(report.failed()).isEqualTo(3);
    assertThat(failures).containsExactly(
        "FAIL no-seq: " + SEQ + " <> {\"broken\":\"unusable args: args.dispatchSeq is required\"}",
        "FAIL no-data: " + SEED + " <> {\"broken\":\"unusable args: args.events[0].data is required\"}",
        "FAIL negative-event-seq: " + SEED
            + " <> {\"broken\":\"unusable args: args.events[0]: seq must be >= 0, got -1\"}");
  }
}
