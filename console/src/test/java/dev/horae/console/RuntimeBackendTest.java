package dev.horae.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.log.LogWaits;
import dev.horae.testkit.time.ManualTime;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's backend over a running runtime ({@link LogBackend#over}): a {@code deploy} call a
 * gate parked on a confirmation is listed and shown in the timeline; a denial never runs the tool,
 * an approval runs it once and the run ends, and an answer to a run that no longer awaits is
 * {@code NOT_FOUND} with the log unchanged. A session closed in the runtime is still read, from
 * the file store, without opening it.
 */
class RuntimeBackendTest {

  @TempDir Path dir;
  private final AtomicInteger deploys = new AtomicInteger();

  private HoraeRuntime runtime(ScriptedModel model) {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir).clock(time).timers(time).model(model).build();
    horae.tools().register(ToolDefinition.builder("deploy").description("Deploys to an environment.")
        .body((args, exec) -> {
          deploys.incrementAndGet();
          return CompletableFuture.completedFuture(Json.parse("{\"deployed\":true}"));
        }).build());
    var unused = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("deploy") ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow()));
    return horae;
  }

  private static RuntimeAgent park(HoraeRuntime horae, String session) throws InterruptedException {
    RuntimeAgent agent = horae.openAgent(session, "UTC");
    horae.prompt(agent, "Deploy to prod.");
    LogWaits.until(horae, agent, log -> agent.parked());
    return agent;
  }

  private static long results(List<SessionEvent> log, boolean error) {
    return log.stream().filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy")
        && e.data().path("isError").asBoolean() == error).count();
  }

  @Test
  void theParkedCallIsListedAndAnApprovalRunsItOnceThroughTheRuntime() throws Exception {
    ScriptedModel model = new ScriptedModel().thenCall("deploy", Json.parse("{\"env\":\"prod\"}")).thenText("deployed");
    try (HoraeRuntime horae = runtime(model)) {
      RuntimeAgent agent = park(horae, "ops-1");
      LogBackend backend = LogBackend.over(horae, 30);

      JsonNode awaiting = backend.awaiting();
      assertThat(awaiting.path("canAnswer").asBoolean()).isTrue();
      assertThat(awaiting.path("awaiting")).singleElement().satisfies(a -> {
        assertThat(a.path("runId").asText()).isEqualTo("ops-1/turn-1");
        assertThat(a.path("tool").asText()).isEqualTo("deploy");
      });
      JsonNode session = backend.sessions().path("sessions").get(0);
      assertThat(session.path("session").asText()).isEqualTo("ops-1");
      assertThat(session.path("state").asText()).isEqualTo("parked turn-1");
      assertThat(backend.timeline("ops-1").path("entries").findValuesAsText("title"))
          .contains("turn 1 started", "prompt", "call deploy (" + awaiting.path("awaiting").get(0).path("callId").asText() + ")");
      assertThat(backend.reminders().path("now").asText()).isEqualTo("2026-12-01T09:00:00Z");
      assertThatThrownBy(() -> backend.timeline("nobody")).isInstanceOf(ConsoleFailure.class)
          .hasMessage("no session nobody in this application's store")
          .satisfies(f -> assertThat(((ConsoleFailure) f).kind()).isEqualTo(ConsoleFailure.Kind.NOT_FOUND));

      JsonNode approved = backend.answer("ops-1/turn-1", true, "");
      assertThat(approved.path("decision").asText()).isEqualTo("approved");
      assertThat(approved.path("runState").asText()).isEqualTo("ended");
      assertThat(approved.path("message").asText())
          .isEqualTo("approved ops-1/turn-1: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)");
      assertThat(deploys).hasValue(1);
      assertThat(results(agent.session().events(), false)).isEqualTo(1);

      int before = agent.session().events().size();
      for (String run : List.of("ops-1/turn-1", "ops-1", "nobody/turn-1")) {
        assertThatThrownBy(() -> backend.answer(run, true, "")).isInstanceOf(ConsoleFailure.class)
            .satisfies(f -> assertThat(((ConsoleFailure) f).kind()).isEqualTo(ConsoleFailure.Kind.NOT_FOUND));
      }
      assertThat(agent.session().events()).hasSize(before);
      assertThat(deploys).hasValue(1);
      assertThat(backend.awaiting().path("awaiting")).isEmpty();
    }
  }

  @Test
  void aDenialNeverRunsTheToolAndAClosedSessionIsStillShown() throws Exception {
    ScriptedModel model = new ScriptedModel().thenCall("deploy", Json.parse("{\"env\":\"prod\"}")).thenText("not deployed");
    try (HoraeRuntime horae = runtime(model)) {
      RuntimeAgent agent = park(horae, "ops-2");
      LogBackend backend = LogBackend.over(horae, 30);
      JsonNode denied = backend.answer("ops-2/turn-1", false, "not tonight");
      assertThat(denied.path("decision").asText()).isEqualTo("denied");
      assertThat(denied.path("reason").asText()).isEqualTo("not tonight");
      assertThat(deploys).hasValue(0);
      assertThat(results(agent.session().events(), true)).isEqualTo(1);

      int events = agent.session().events().size();
      assertThat(horae.closeSession("ops-2")).isTrue();
      assertThat(horae.sessions().get("ops-2")).isEmpty();
      JsonNode shown = backend.sessions().path("sessions");
      assertThat(shown).singleElement().satisfies(s -> {
        assertThat(s.path("session").asText()).isEqualTo("ops-2");
        assertThat(s.path("events").asInt()).isEqualTo(events);
        assertThat(s.path("state").asText()).isEqualTo("idle");
      });
      // reading it did not reopen it in the runtime
      assertThat(horae.sessions().get("ops-2")).isEmpty();
    }
  }
}
