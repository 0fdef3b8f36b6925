package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.AbortController;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spec §6.2, §7, §8, §9: the management pipelines, their costs and their error values. */
class PipelinesTest {

  private static final String PERSISTENCE =
      "{\"code\":\"persistence_uncertain\",\"message\":\"Schedule persistence is uncertain; retry with"
          + " schedule_list before relying on this result.\",\"operation\":";

  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    f = new Fixture();
    a = f.agent();
  }

  @Test
  void createSuccessCostsTwoFlushesTwoOwnerRequestsAndOneAppend() {
    long flushes = f.toolFlushes(a);
    long requests = f.owner(a).requests();
    assertThat(f.create(a, "{\"prompt\":\"  check logs  \",\"after_seconds\":30}")).isEqualTo(
        "{\"id\":\"schedule-1\",\"kind\":\"after\",\"prompt\":\"check logs\",\"afterSeconds\":30,"
            + "\"scheduledAt\":\"2026-08-05T12:00:30.000Z\",\"state\":\"scheduled\",\"deliveryMode\":\"session-local\"}");
    assertThat(f.toolFlushes(a) - flushes).isEqualTo(2);
    assertThat(f.owner(a).requests() - requests).isEqualTo(2);
    assertThat(f.changeTexts(a)).containsExactly(
        "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"after\","
            + "\"prompt\":\"check logs\",\"afterSeconds\":30,\"scheduledAt\":\"2026-08-05T12:00:30.000Z\"}}");
    assertThat(f.changes(a).get(0).surfaceOp()).isEmpty();
  }

  @Test
  void shapeErrorsCostNothing() {
    long flushes = f.flushes(a);
    long requests = f.owner(a).requests();
    assertThat(f.create(a, "{\"prompt\":\"x\"}")).contains("\"invalid_selector\"");
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":1,\"every_seconds\":300}")).contains("\"invalid_selector\"");
    assertThat(f.create(a, "{\"prompt\":\" \",\"after_seconds\":1}")).contains("\"invalid_prompt\"");
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":1.5}")).isEqualTo(
        "{\"code\":\"invalid_rule\",\"message\":\"after_seconds must be a positive safe integer.\"}");
    assertThat(f.text(a, "schedule_delete", "{\"id\":\" schedule-1\"}")).isEqualTo(
        "{\"code\":\"invalid_rule\",\"message\":\"schedule_delete id must be non-empty without surrounding whitespace.\"}");
    assertThat(f.text(a, "schedule_delete", "{\"id\":\"\"}")).contains("invalid_rule");
    assertThat(f.flushes(a)).isEqualTo(flushes);
    assertThat(f.owner(a).requests()).isEqualTo(requests);
    assertThat(f.changes(a)).isEmpty();
  }

  @Test
  void registryRejectsWrongTypesBeforeSchedule() {
    ToolResult r = f.call(a, "schedule_create", "{\"prompt\":\"x\",\"after_seconds\":\"30\"}");
    assertThat(r.isError()).isTrue();
    assertThat(r.code()).contains(ToolResult.INVALID_ARGS);
    ToolResult local = f.call(a, "schedule_create",
        "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\",\"x\":1}}");
    assertThat(local.code()).contains(ToolResult.INVALID_ARGS);
  }

  @Test
  void inputErrorAfterPreflightCostsOneFlushAndOneRequest() {
    long flushes = f.toolFlushes(a);
    long requests = f.owner(a).requests();
    assertThat(f.create(a, "{\"prompt\":\"x\",\"at\":\"2026-08-05T12:00:00Z\"}")).isEqualTo(
        "{\"code\":\"not_future\",\"message\":\"The scheduled time must be strictly in the future.\"}");
    // a local at without zone and without authority reaches Schedule and asks for confirmation
    assertThat(f.create(a, "{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-06\",\"time\":\"09:00:00\"}}")).isEqualTo(
        "{\"code\":\"timezone_confirmation_required\",\"message\":\"Local at requires an explicit time_zone for"
            + " this request.\",\"sessionTimeZone\":\"unavailable\",\"clientTimeZones\":[]}");
    assertThat(f.toolFlushes(a) - flushes).isEqualTo(2);
    assertThat(f.owner(a).requests() - requests).isEqualTo(2);
    assertThat(f.changes(a)).isEmpty();
  }

  @Test
  void preflightUncertainHasNoIdAndNoOwnerRequest() {
    long requests = f.owner(a).requests();
    f.host.store().script().thenFail(new IOException("disk gone"));
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}")).isEqualTo(PERSISTENCE + "\"create\"}");
    f.host.store().script().thenThrow(new IllegalStateException("detached"));
    assertThat(f.list(a)).isEqualTo(PERSISTENCE + "\"list\"}");
    f.host.store().script().thenFail(new IOException("again"));
    assertThat(f.delete(a, "schedule-1")).isEqualTo(PERSISTENCE + "\"delete\",\"id\":\"schedule-1\"}");
    assertThat(f.owner(a).requests()).isEqualTo(requests);
    assertThat(f.changes(a)).isEmpty();
  }

  @Test
  void barrierUncertainKeepsTheEventAndALaterPreflightConfirmsIt() {
    f.host.store().script().thenComplete().thenFail(new IOException("barrier"));
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}"))
        .isEqualTo(PERSISTENCE + "\"create\",\"id\":\"schedule-1\"}");
    assertThat(f.changes(a)).hasSize(1);
    assertThat(f.list(a)).contains("\"id\":\"schedule-1\"");
    f.host.store().script().thenComplete().thenFail(new IOException("barrier"));
    assertThat(f.delete(a, "schedule-1")).isEqualTo(PERSISTENCE + "\"delete\",\"id\":\"schedule-1\"}");
    assertThat(f.list(a)).isEqualTo("[]");
  }

  @Test
  void vetoedAppendIsAnInternalError() {
    f.host.sessions().vetoNext(EventTypes.SCHEDULE_CHANGE, new IllegalStateException("veto"));
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}"))
        .isEqualTo("{\"code\":\"internal_error\",\"message\":\"The schedule operation failed.\"}");
    assertThat(f.changes(a)).isEmpty();
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}");
    f.host.sessions().vetoNext(EventTypes.SCHEDULE_CHANGE, new IllegalStateException("veto"));
    assertThat(f.delete(a, "schedule-1")).contains("internal_error");
    assertThat(f.list(a)).contains("schedule-1");
  }

  @Test
  void corruptLogIsReportedAfterPreflightAndNeverShowsTheDecoderMessage() {
    a.session().append(EventTypes.SCHEDULE_CHANGE, Fixture.json("{\"version\":2}"));
    String corrupt = "{\"code\":\"corrupt_schedule_log\",\"message\":\"The session schedule log is corrupt.\"}";
    assertThat(f.list(a)).isEqualTo(corrupt);
    assertThat(f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}")).isEqualTo(corrupt);
    assertThat(f.delete(a, "schedule-1")).isEqualTo(corrupt);
    // an unconfirmed suffix is never answered, even when it would be corrupt
    f.host.store().script().thenFail(new IOException("x"));
    assertThat(f.list(a)).startsWith(PERSISTENCE);
  }

  @Test
  void listShowsActiveRecordsInCreationOrderWithState() {
    f.create(a, "{\"prompt\":\"late\",\"after_seconds\":600}");
    f.create(a, "{\"prompt\":\"soon\",\"at\":\"2026-08-05T12:00:10Z\"}");
    a.setBusy(); // keep the owner from dispatching while the record turns overdue
    f.host.advance(java.time.Duration.ofSeconds(11));
    assertThat(f.list(a)).isEqualTo("["
        + "{\"id\":\"schedule-1\",\"kind\":\"after\",\"prompt\":\"late\",\"afterSeconds\":600,\"scheduledAt\":"
        + "\"2026-08-05T12:10:00.000Z\",\"state\":\"scheduled\",\"deliveryMode\":\"session-local\"},"
        + "{\"id\":\"schedule-2\",\"kind\":\"at\",\"prompt\":\"soon\",\"scheduledAt\":\"2026-08-05T12:00:10.000Z\","
        + "\"state\":\"overdue\",\"deliveryMode\":\"session-local\"}]");
  }

  @Test
  void deleteCostsAndNotFound() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":30}");
    long flushes = f.toolFlushes(a);
    assertThat(f.delete(a, "schedule-9")).isEqualTo("{\"id\":\"schedule-9\",\"deleted\":false,\"code\":\"schedule_not_found\"}");
    assertThat(f.toolFlushes(a) - flushes).isEqualTo(1);
    assertThat(f.delete(a, "schedule-1")).isEqualTo("{\"id\":\"schedule-1\",\"deleted\":true}");
    assertThat(f.toolFlushes(a) - flushes).isEqualTo(3);
    assertThat(f.delete(a, "schedule-1")).contains("schedule_not_found");
    assertThat(f.changeTexts(a)).last().isEqualTo("{\"version\":1,\"operation\":\"delete\",\"id\":\"schedule-1\"}");
    // create → delete → create allocates a fresh id
    assertThat(f.create(a, "{\"prompt\":\"y\",\"after_seconds\":30}")).contains("\"schedule-2\"");
  }

  @Test
  void wrongCallingAgentIsAnInternalErrorButDeleteChecksItsIdFirst() {
    TestAgent other = f.agent();
    ToolDefinition list = f.host.tools().find(a, "schedule_list").orElseThrow();
    ToolDefinition delete = f.host.tools().find(a, "schedule_delete").orElseThrow();
    ToolExecution foreign = new ToolExecution(other, "c", dev.horae.spi.AbortSignal.never());
    assertThat(list.body().execute(Fixture.json("{}"), foreign).toCompletableFuture().join().toString())
        .contains("internal_error");
    assertThat(delete.body().execute(Fixture.json("{\"id\":\" x\"}"), foreign).toCompletableFuture().join().toString())
        .contains("invalid_rule");
    assertThat(delete.body().execute(Fixture.json("{\"id\":\"x\"}"), foreign).toCompletableFuture().join().toString())
        .contains("internal_error");
  }

  @Test
  void cancellationAtTheHeadOfTheQueueFlushesNothing() {
    AbortController c = Fixture.controller();
    c.abort();
    int flushes = f.flushes(a);
    ToolResult r = f.callAsync(a, "schedule_list", "{}", c.signal()).toCompletableFuture().join();
    assertThat(r.code()).contains(ToolResult.ABORTED);
    assertThat(f.flushes(a)).isEqualTo(flushes);
  }

  @Test
  void cancellationDuringPreflightTakesEffectBeforeTheAppend() {
    HeldFlush held = f.host.store().script().thenHold();
    AbortController c = Fixture.controller();
    CompletableFuture<ToolResult> r =
        f.callAsync(a, "schedule_create", "{\"prompt\":\"x\",\"after_seconds\":30}", c.signal()).toCompletableFuture();
    assertThat(held.reached()).isTrue();
    c.abort();
    held.release();
    assertThat(r.join().code()).contains(ToolResult.ABORTED);
    assertThat(f.changes(a)).isEmpty();
  }

  @Test
  void aListWaitsForACreateInItsPreflight() {
    HeldFlush held = f.host.store().script().thenHold();
    ToolDefinition create = f.host.tools().find(a, "schedule_create").orElseThrow();
    ToolDefinition list = f.host.tools().find(a, "schedule_list").orElseThrow();
    ToolExecution exec = new ToolExecution(a, "c", dev.horae.spi.AbortSignal.never());
    var created = create.body().execute(Fixture.json("{\"prompt\":\"x\",\"after_seconds\":30}"), exec).toCompletableFuture();
    int flushes = f.flushes(a);
    var listed = list.body().execute(Fixture.json("{}"), exec).toCompletableFuture();
    assertThat(f.flushes(a)).isEqualTo(flushes);
    assertThat(listed).isNotDone();
    held.release();
    assertThat(created.join().path("id").asText()).isEqualTo("schedule-1");
    assertThat(listed.join().get(0).path("id").asText()).isEqualTo("schedule-1");
  }

  @Test
  void extraListArgumentsAreIgnored() {
    assertThat(f.text(a, "schedule_list", "{\"verbose\":true}")).isEqualTo("[]");
  }
}
