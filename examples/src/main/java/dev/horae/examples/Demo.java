package dev.horae.examples;

import dev.horae.gate.GateJson;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.jobs.shell.BackgroundShellTool;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The Horae demo: one agent on the production runtime over {@code ./horae-data}, one session log
 * that shows all four capabilities — a reminder created and delivered as a follow-up turn, the
 * time-context reading before every step, a background {@code bash} job whose completion wakes
 * the idle agent, a call gated with RequireConfirmation that the demo's user approves, and a
 * {@code send_email} gated with Schedule. The first run stops with that email committed but not
 * performed and a reminder that came due while the agent waited on it; the second run, a new
 * process on the same data, performs the email exactly once and delivers the reminder exactly
 * once, and says so. Later runs show that nothing was done twice.
 */
public final class Demo {

  static final String SESSION = "demo";
  private static final String ZONE = "Europe/Amsterdam";

  private final PrintStream out;
  private final Duration reminderDelay;
  private final Object changed = new Object();
  private final AtomicInteger sent = new AtomicInteger();

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
   * Runs the demo over a data folder: the first run on an empty folder shows every capability and
   * stops with work pending, a later run finishes that work and shows what survived.
   *
   * @param dataDir the file store folder
   * @param out where to print
   * @param reminderDelay how far ahead the reminders are set (whole seconds)
   * @return true when this was a restored (second or later) run
   * @throws InterruptedException when interrupted while waiting
   */
  public static boolean run(Path dataDir, PrintStream out, Duration reminderDelay) throws InterruptedException {
    return new Demo(out, reminderDelay).go(dataDir);
  }

  private boolean go(Path dataDir) throws InterruptedException {
    boolean restored = Files.isDirectory(dataDir) && hasSession(dataDir);
    // the first run plays a process that stops between committing a scheduled action and performing it
    try (HoraeRuntime host = HoraeRuntime.builder().dataDir(dataDir).model(new DemoModel(reminderDelay))
        .dispatchScheduledActions(restored).build()) {
      host.sessions().onEvent(new EventPrinter(out));
      host.sessions().onEvent((s, e) -> signal());
      host.agents().onStatus((a, s) -> signal());

      host.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone(ZONE).build()));
      host.install(SchedulePlugin.create());
      LocalJobService jobs = LocalJobService.create(host);
      host.provide(JobService.class, jobs);
      host.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
      host.install(JobsController.create());
      host.install(BackgroundShellTool.create());
      registerGatedTools(host);

      out.println(restored
          ? "Horae demo — restoring the session from " + dataDir.toAbsolutePath()
          : "Horae demo — a fresh session in " + dataDir.toAbsolutePath());
      RuntimeAgent agent = host.openAgent(SESSION, ZONE);
      if (restored) {
        showRestored(host, agent);
      } else {
        showFirstRun(host, agent);
      }
      out.println(restored
          ? "Done. Delete " + dataDir + " to start over."
          : "Stopping with that work pending. Run the demo again: a new process on the same data finishes it.");
      return restored;
    }
  }

  private static boolean hasSession(Path dataDir) {
    try (FileSessionStore probe = FileSessionStore.open(dataDir)) {
      return probe.contains(SESSION);
    }
  }

  /** Two tools behind gates: deletions need the user's yes, emails are scheduled actions. */
  private void registerGatedTools(HoraeRuntime host) {
    host.tools().register(ToolDefinition.builder("delete_artifacts")
        .description("Deletes build artifacts older than the given number of days")
        .body((args, exec) -> {
          out.println("  [tool] delete_artifacts removed the builds older than " + args.path("older_than_days").asInt() + " days");
          return CompletableFuture.completedFuture(Json.parse("{\"deleted\":3}"));
        })
        .build());
    host.tools().register(ToolDefinition.builder("send_email")
        .description("Sends an email")
        .body((args, exec) -> {
          sent.incrementAndGet();
          out.println("  [tool] send_email performed for " + args.path("to").asText());
          return CompletableFuture.completedFuture(Json.parse("{\"sent\":true}"));
        })
        .build());
    Registration deletes = host.gates().register(ToolGate.named("confirm-deletes", (call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("delete_artifacts") ? GateOutcome.requireConfirmation("delete-" + call.callId()) : GateOutcome.allow())));
    Registration emails = host.gates().register(ToolGate.named("defer-email", (call, state) -> CompletableFuture.completedFuture(
        call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow())));
    host.closeOnShutdown(deletes);
    host.closeOnShutdown(emails);
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

    out.println();
    out.println("4. Gate, RequireConfirmation — the call is committed and waits for a person");
    host.prompt(agent, "Clean up the old build artifacts.", ZONE);
    await("the deletion to wait for a yes", agent::parked);
    AwaitingCall deletion = host.awaiting().get(0);
    out.println("  [awaiting " + deletion.reason().wireName() + "] " + deletion.toolId() + " " + deletion.arguments());
    out.println("  [demo user] approves " + deletion.runId());
    ResumeOutcome approved = host.approve(deletion.runId()).toCompletableFuture().join();
    out.println("  the approved turn went on and " + describe(approved));
    await("the turn to end", () -> idle(agent));

    out.println();
    out.println("5. Gate, Schedule — an email committed as a scheduled action; this process does not perform it");
    host.prompt(agent, "Remind me in " + reminderDelay.toSeconds() + " seconds to check the release.", ZONE);
    await("the second reminder to be set", () -> idle(agent) && count(agent, "schedule/change") >= 3);
    host.prompt(agent, "Email the release notes to the team.", ZONE);
    await("the email to be committed", agent::parked);
    AwaitingCall email = host.awaiting().get(0);
    out.println("  [awaiting " + email.reason().wireName() + "] " + email.toolId() + " " + email.arguments()
        + " — committed in the log, not performed");
    // the reminder comes due while the agent waits on the email: its turn cannot start yet
    Thread.sleep(reminderDelay.toMillis() + 200);
    out.println("  the check-the-release reminder is now due, but the agent is busy with the parked email");
  }

  private void showRestored(HoraeRuntime host, RuntimeAgent agent) throws InterruptedException {
    List<SessionEvent> events = agent.session().events();
    int dispatchesBefore = dispatches(agent);
    int emailsBefore = emailResults(agent);
    out.println("  restored " + events.size() + " events: " + count(agent, "turn/start") + " turns, "
        + readings(agent).size() + " time readings, " + count(agent, "schedule/change") + " schedule changes, "
        + notices(agent) + " job notice(s), " + count(agent, "gate/commit") + " gate commits");
    out.println();
    out.println("1. What the stopped process left: the committed email is performed, the due reminder delivered");
    await("every committed action and due reminder to be done",
        () -> idle(agent) && host.awaiting().isEmpty() && dispatches(agent) == creates(agent));
    out.println("  send_email ran " + sent.get() + " time(s) in this process; send_email results in the log: "
        + emailResults(agent) + " (before this run: " + emailsBefore + ")");
    out.println("  reminder deliveries in the log: " + dispatches(agent) + " (before this run: " + dispatchesBefore
        + ") — nothing was delivered or sent twice");
  }

  private static String describe(ResumeOutcome outcome) {
    if (outcome instanceof ResumeOutcome.Advanced a) {
      return "the run is " + Json.write(GateJson.encodeRunState(a.state()));
    }
    return "was rejected: " + ((ResumeOutcome.Rejected) outcome).display();
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

  private static int creates(RuntimeAgent agent) {
    return (int) agent.session().events().stream()
        .filter(e -> e.type().equals("schedule/change") && e.data().path("operation").asText().equals("create"))
        .count();
  }

  private static int emailResults(RuntimeAgent agent) {
    return (int) agent.session().events().stream()
        .filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("send_email"))
        .count();
  }

  private static List<String> readings(RuntimeAgent agent) {
    return agent.session().events().stream()
        .filter(e -> e.type().equals("user/message") && e.data().path("source").path("plugin").asText().equals("time-context"))
        .map(e -> e.data().path("content").path(0).path("text").asText())
        .toList();
  }
}
