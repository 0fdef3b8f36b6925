package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleState;
import dev.horae.spi.AbortController;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** A test host with Schedule installed and helpers to call its tools and read the log. */
final class Fixture {

  static final Instant START = Instant.parse("2026-08-05T12:00:00Z");
  private static final AtomicInteger CALLS = new AtomicInteger();

  final TestHost host;
  final SchedulePlugin.ScheduleInstallation installation;

  Fixture() {
    this(TestHost.builder().start(START).build());
  }

  Fixture(TestHost host) {
    this.host = host;
    this.installation = SchedulePlugin.create().install(host);
  }

  /** Schedule installed through a wrapper with fault switches over the test host. */
  Fixture(WrappedHost wrapped) {
    this.host = wrapped.d;
    this.installation = SchedulePlugin.create().install(wrapped);
  }

  TestAgent agent() {
    return host.createAgent();
  }

  TestAgent agent(String zone) {
    return host.createAgent(CreateOptions.withTimeZone(zone));
  }

  CompletionStage<ToolResult> callAsync(TestAgent agent, String tool, String args, AbortSignal signal) {
    return host.tools().call(
        new ToolInvocation(agent, new ToolCall("call-" + CALLS.incrementAndGet(), tool, Json.parse(args))), signal);
  }

  ToolResult call(TestAgent agent, String tool, String args) {
    ToolResult r = callAsync(agent, tool, args, AbortSignal.never()).toCompletableFuture().join();
    host.settle();
    return r;
  }

  /** The rendered text of a successful call. */
  String text(TestAgent agent, String tool, String args) {
    ToolResult r = call(agent, tool, args);
    assertThat(r.isError()).as("tool error: %s", r.text()).isFalse();
    return r.text();
  }

  String create(TestAgent agent, String args) {
    return text(agent, "schedule_create", args);
  }

  String list(TestAgent agent) {
    return text(agent, "schedule_list", "{}");
  }

  String delete(TestAgent agent, String id) {
    return text(agent, "schedule_delete", "{\"id\":\"" + id + "\"}");
  }

  int flushes(TestAgent agent) {
    return host.sessions().flushCount(agent.session());
  }

  OwnerState owner(TestAgent agent) {
    return installation.ownerState(agent).orElseThrow();
  }

  /** Flushes issued by tools: all flushes minus the owner's. */
  long toolFlushes(TestAgent agent) {
    return flushes(agent) - owner(agent).flushes();
  }

  List<SessionEvent> changes(TestAgent agent) {
    return agent.session().events().stream()
        .filter(e -> e.type().equals(EventTypes.SCHEDULE_CHANGE)).toList();
  }

  List<String> changeTexts(TestAgent agent) {
    return changes(agent).stream().map(e -> Json.write(e.data())).toList();
  }

  ScheduleState fold(TestAgent agent) {
    return ScheduleFold.fold(agent.session().events(), agent.session().header().seedLength());
  }

  static JsonNode json(String text) {
    return Json.parse(text);
  }

  static AbortController controller() {
    return new AbortController();
  }
}
