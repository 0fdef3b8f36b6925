package dev.horae.examples;

import dev.horae.gate.RunState;
import dev.horae.gate.runtime.AgentRuntime;
import dev.horae.gate.runtime.AgentSnapshot;
import dev.horae.gate.runtime.DispatchReport;
import dev.horae.gate.runtime.ModelReply;
import dev.horae.gate.runtime.RunActivation;
import dev.horae.gate.runtime.RunContext;
import dev.horae.gate.runtime.ScheduledActionDispatcher;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.gate.runtime.ToolDescriptor;
import dev.horae.jobs.JobServiceConfig;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.LocalJobService;
import dev.horae.jobs.shell.BackgroundShellTool;
import dev.horae.jobs.shell.ShellJobConfig;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.gate.ToolOutput;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The Horae demo: one agent on the production runtime over {@code ./horae-data} shows a reminder created and
 * delivered as a follow-up turn, the time-context readings, a background {@code bash} job whose
 * completion wakes the idle agent, and a tool call that a gate schedules and the dispatcher
 * performs. A second run resumes from the file store and shows that nothing was delivered twice.
 */
public final class Demo {

  static final String SESSION = "demo";
  static final String DEPLOY_SESSION = "demo-deploy";
  private static final String ZONE = "Europe/Amsterdam";

  private final PrintStream out;
  private final Duration reminderDelay;
  private final Object changed = new Object();

  private Demo(PrintStream out, Duration reminderDelay) {
    this.out = out;
    this.reminderDelay = reminderDelay;
  }

  /**
   * Runs the demo in {@code ./horae-data}.
   *
   * @param args ignored
   * @throws InterruptedException when interrupted while waiting
   */
  public static void main(String[] args) throws InterruptedException {
    run(Path.of("horae-data"), System.out, Duration.ofSeconds(3));
  }

  /**
   * Runs the demo over a data folder: the first run on an empty folder shows every capability, a
   * later run shows what survived.
   *
   * @param dataDir the file store folder
   * @param out where to print
   * @param reminderDelay how far ahead the reminder is set (whole seconds)
   * @return true when this was a restored (second or later) run
   * @throws InterruptedException when interrupted while waiting
   */
  public static boolean run(Path dataDir, PrintStream out, Duration reminderDelay) throws InterruptedException {
    return new Demo(out, reminderDelay).go(dataDir);
  }

  private boolean go(Path dataDir) throws InterruptedException {
    try (HoraeRuntime host = HoraeRuntime.builder().dataDir(dataDir).model(new DemoModel(reminderDelay)).build()) {
      boolean restored = host.store().ids().contains(SESSION);
      host.sessions().onEvent(new EventPrinter(out));
      host.sessions().onEvent((s, e) -> signal());
      host.agents().onStatus((a, s) -> signal());

      host.install(TimeContextPlugin.withConfig(Json.parse("{\"timeZone\":\"" + ZONE + "\"}")));
      host.install(new SchedulePlugin());
      LocalJobService jobs = LocalJobService.create(JobServiceConfig.defaults(), host);
      host.provide(JobService.class, jobs);
      host.install(JobsController.plugin(JobsControllerConfig.defaults()));
      host.tools().register(BackgroundShellTool.definition(host, ShellJobConfig.defaults()));

      out.println(restored
          ? "Horae demo — restoring the session from " + dataDir.toAbsolutePath()
          : "Horae demo — a fresh session in " + dataDir.toAbsolutePath());
      RuntimeAgent agent = host.openAgent(SESSION, ZONE);
      if (restored) {
        showRestored(host, agent);
      } else {
        showFirstRun(host, agent);
      }
      gate(host, restored);
      for (Session s : host.sessions().list()) {
        host.sessions().flush(s).toCompletableFuture().join();
      }
      jobs.closeAsync().toCompletableFuture().join();
      out.println(restored
          ? "Done. Delete " + dataDir + " to start over."
          : "Done. Everything durable is in " + dataDir + "; run the demo again to see what survived.");
      return restored;
    }
  }

  private void showFirstRun(HoraeRuntime host, RuntimeAgent agent) throws InterruptedException {
    out.println();
    out.println("1. Schedule — a reminder with after_seconds, delivered as a follow-up turn");
    host.prompt(agent, "Remind me in " + reminderDelay.toSeconds() + " seconds to stretch my legs.", ZONE);
    await("the reminder turn to be set up", () -> idle(agent) && count(agent, "schedule/change") >= 1);
    await("the reminder to come due", () -> dispatches(agent) >= 1 && idle(agent));

    out.println();
    out.println("2. Time context — every step above began with a durable reading in the log:");
    readings(agent).stream().limit(2).forEach(r -> out.println("  " + r.replace("\n", "\n  ")));

    out.println();
    out.println("3. Jobs — a background bash job; its completion wakes the idle agent");
    host.prompt(agent, "Start the build in the background.", ZONE);
    await("the build to finish and its notice to arrive", () -> notices(agent) >= 1 && idle(agent));
  }

  private void showRestored(HoraeRuntime host, RuntimeAgent agent) throws InterruptedException {
    List<SessionEvent> events = agent.session().events();
    out.println("  restored " + events.size() + " events: " + count(agent, "turn/start") + " turns, "
        + readings(agent).size() + " time readings, " + count(agent, "schedule/change") + " schedule changes, "
        + notices(agent) + " job notice(s)");
    out.println();
    out.println("1. Schedule after restart — asking the model what is still scheduled");
    int before = dispatches(agent);
    host.prompt(agent, "What is scheduled?", ZONE);
    await("the answer", () -> idle(agent) && count(agent, "turn/end") > countTurnEnds(events));
    out.println("  reminder deliveries in the log: " + dispatches(agent) + " (before this run: " + before
        + ") — nothing was delivered twice");
  }

  private void gate(HoraeRuntime host, boolean restored) {
    out.println();
    out.println((restored ? "2" : "4") + ". Gate — a tool call the gate schedules; the dispatcher performs it later");
    Session deploy = host.store().ids().contains(DEPLOY_SESSION)
        ? host.sessions().resume(DEPLOY_SESSION)
        : host.sessions().create(new CreateOptions(Optional.of(DEPLOY_SESSION), Optional.empty(), Optional.of(ZONE)));
    SessionCommitStore commits = SessionCommitStore.over(host.sessions()::get, host.sessions()::flush);
    AtomicInteger sent = new AtomicInteger();
    ToolGates gates = ToolGates.create();
    gates.register(ToolGate.named("defer-email", (call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-1") : GateOutcome.allow())));
    AgentRuntime runtime = AgentRuntime.builder(
            request -> CompletableFuture.completedFuture(request.step() == 1
                ? ModelReply.calls(new ToolCall("email-call", "send_email",
                    Json.parse("{\"to\":\"team@example.com\",\"subject\":\"Release notes\"}")))
                : ModelReply.answer("The release notes email went out.")),
            (call, context) -> {
              sent.incrementAndGet();
              out.println("  [tool] send_email performed for " + call.arguments().path("to").asText());
              return CompletableFuture.completedFuture(ToolOutput.success(call.callId(), Json.parse("\"sent\"")));
            })
        .gates(gates)
        .build();
    runtime.registerSnapshot(AgentSnapshot.of("deploy-agent", Set.of(), List.of(ToolDescriptor.of("send_email")), 8));
    RunContext context = RunContext.of(commits);
    if (!restored) {
      RunState state = runtime.execute(new RunActivation("run-1", deploy.id(), "deploy-agent", "Send the release notes."), context)
          .toCompletableFuture().join();
      out.println("  run-1 is " + Json.write(dev.horae.gate.GateJson.encodeRunState(state))
          + ": the call is committed as a resume ticket, not performed");
    }
    ScheduledActionDispatcher dispatcher = ScheduledActionDispatcher.create(runtime, context, host.wallClock());
    DispatchReport report = dispatcher.start(List.of(deploy)).toCompletableFuture().join();
    if (report.performed().isEmpty()) {
      out.println("  the dispatcher found no committed action waiting: the email was sent once, in the first run");
    } else {
      report.performed().forEach((run, outcome) -> out.println("  dispatcher performed " + run + " -> " + outcome));
    }
    out.println("  send_email ran " + sent.get() + " time(s) in this process");
  }

  // ---- waiting -------------------------------------------------------------------------------

  private void signal() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  private void await(String what, BooleanSupplier done) throws InterruptedException {
    long start = System.nanoTime();
    long lastPrinted = 0;
    // the condition reads sessions, whose observers signal us under the session lock: never
    // evaluate it while holding the monitor, and wait with a timeout so a missed signal costs little
    while (!done.getAsBoolean()) {
      long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      if (waited > 60) {
        throw new IllegalStateException("gave up waiting for " + what);
      }
      if (waited > lastPrinted) {
        lastPrinted = waited;
        out.println("  … waiting for " + what + " (" + waited + "s)");
      }
      synchronized (changed) {
        changed.wait(250);
      }
    }
  }

  private static boolean idle(RuntimeAgent agent) {
    List<SessionEvent> events = agent.session().events();
    return agent.status() == AgentStatus.IDLE && agent.pendingNextTurn().isEmpty()
        && !events.isEmpty() && events.get(events.size() - 1).type().equals("turn/end");
  }

  private static int count(RuntimeAgent agent, String type) {
    return (int) agent.session().events().stream().filter(e -> e.type().equals(type)).count();
  }

  private static int countTurnEnds(List<SessionEvent> events) {
    return (int) events.stream().filter(e -> e.type().equals("turn/end")).count();
  }

  private static int dispatches(RuntimeAgent agent) {
    return (int) agent.session().events().stream()
        .filter(e -> e.type().equals("schedule/change") && e.data().path("operation").asText().equals("dispatch"))
        .count();
  }

  private static int notices(RuntimeAgent agent) {
    return (int) agent.session().events().stream()
        .filter(e -> e.type().equals("user/message") && e.data().path("source").path("form").asText().equals("notice"))
        .count();
  }

  private static List<String> readings(RuntimeAgent agent) {
    return agent.session().events().stream()
        .filter(e -> e.type().equals("user/message") && e.data().path("source").path("plugin").asText().equals("time-context"))
        .map(e -> e.data().path("content").path(0).path("text").asText())
        .toList();
  }
}
