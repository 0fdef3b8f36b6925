package dev.horae.examples.chaos;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.horae.invariant.Companions;
import dev.horae.runtime.DueSessions;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.ScheduleDueIndex;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.SessionLease;
import dev.horae.store.SessionLeaseException;
import dev.horae.store.SessionLeaseKeeper;
import dev.horae.spi.time.SystemTime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Worker-JVM main of {@link ChaosCampaignTest}: one node of the cluster, a {@link HoraeRuntime} over
 * {@link JdbcSessionStore} (over a connection pool) with session leases, the Schedule plugin, a gate that puts {@code
 * send_email} under the {@code schedule} verdict, and the due-sessions worker, on the system clock.
 *
 * <p>Args: JDBC URL, user, password, table prefix, worker number, session count, prompts per session,
 * lease milliseconds. The worker serves the sessions {@code s000…}: it opens each one whose log holds
 * fewer reminders than the target (the log is the truth, so a restarted worker continues what no node
 * finished, and a session another node holds is skipped with {@code lease-held} and tried again
 * later), prompts it until it has them, and closes it; the due-sessions worker reopens sessions as
 * their reminders come due. Its stdout lines: {@code ready <owner>}, {@code lost <session>
 * closed=<whether no agent of it is open> stale=<whether a refused append showed the loss>}, {@code
 * fenced <call id>} (an email the effect's fence refused), {@code served} (every session has its
 * reminders) and {@code stopped}. It stops on the line {@code stop} on stdin, or at its end.
 */
public final class ChaosWorker {

  /** The side table {@code send_email} inserts one row into per execution, after the table prefix. */
  static final String SENT = "sent";
  /** The tool the gate schedules. */
  static final String TOOL = "send_email";

  private static final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
  /** How far ahead the next reminder of a session must be for this worker to close it. */
  private static final long CLOSE_MARGIN_MS = 2_000;
  /** Connections per node: its two prompting threads, the runtime's drivers, lease renewals and the due pass. */
  private static final int POOL = 8;
  /** Set once stdin says stop (or ends). */
  private static volatile boolean stopping;

  private ChaosWorker() {}

  private static void print(String line) {
    synchronized (out) {
      out.print(line + "\n");
      out.flush();
    }
  }

  /**
   * The id of the {@code i}-th session.
   *
   * @param i its number
   * @return e.g. {@code s007}
   */
  static String sessionId(int i) {
    return String.format("s%03d", i);
  }

  /**
   * The seconds after which the reminder of prompt {@code tag} is due: 1 to 12, spread by the tag
   * so the reminders come due over the whole run.
   *
   * @param tag the prompt's tag
   * @return the delay
   */
  static int delaySeconds(String tag) {
    return 1 + Math.floorMod(tag.hashCode(), 12);
  }

  /**
   * Runs the node until told to stop.
   *
   * @param args URL, user, password, prefix, worker number, sessions, prompts per session, lease ms
   * @throws Exception when the node cannot start; the test reports the worker's stderr
   */
  public static void main(String[] args) throws Exception {
    String prefix = args[3];
    int worker = Integer.parseInt(args[4]);
    int sessions = Integer.parseInt(args[5]);
    int perSession = Integer.parseInt(args[6]);
    Duration lease = Duration.ofMillis(Long.parseLong(args[7]));
    // unique per process: a restarted worker is a new owner, as a restarted node is
    String owner = "w" + worker + "-" + ProcessHandle.current().pid();
    PGSimpleDataSource connections = new PGSimpleDataSource();
    connections.setUrl(args[0]);
    connections.setUser(args[1]);
    connections.setPassword(args[2]);
    // every connection names its node: the test's audit trigger records it beside each event row
    connections.setApplicationName(owner);
    // pooled, as a deployment's would be (docs/persistence.md, "Connections"): lease renewals, due
    // polls and appends each take a connection, and unpooled each was a new server process — on a
    // 2-core machine three nodes' connection churn alone kept both cores busy (2026-12-05)
    HikariConfig pool = new HikariConfig();
    pool.setDataSource(connections);
    pool.setMaximumPoolSize(POOL);
    pool.setPoolName("chaos-" + owner);
    try (HikariDataSource dataSource = new HikariDataSource(pool)) {
      serveNode(dataSource, prefix, owner, worker, sessions, perSession, lease);
    }
    print("stopped");
  }

  private static void serveNode(DataSource dataSource, String prefix, String owner, int worker, int sessions,
      int perSession, Duration lease) throws Exception {
    // reminders and committed scheduled actions both make a session due (docs/persistence.md, "The due index")
    JdbcSessionStore store = JdbcSessionStore.create(dataSource, prefix, HoraeRuntime.dueIndexer(ScheduleDueIndex::track));
    try (HoraeRuntime horae = HoraeRuntime.builder()
        .leases(store.leases(owner, lease, SystemTime.wallClock()))
        .dueSessions(DueSessions.Settings.DEFAULTS.withMaxOpen(8).withPoll(Duration.ofMillis(200))
            .withKeepOpenWithin(Duration.ZERO))
        .model(new Model())
        .build()) {
      var unusedCompanions = Companions.registerAll(horae);
      horae.install(SchedulePlugin.create());
      SessionLeaseKeeper keeper = horae.leaseKeeper().orElseThrow();
      horae.tools().register(ToolDefinition.builder(TOOL)
          .description("Sends an email")
          .body((arguments, exec) -> CompletableFuture.completedFuture(
              send(dataSource, prefix, keeper, exec.agent().session().id(), exec.callId(), owner)))
          .build());
      var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
          call.toolId().equals(TOOL) ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow()));
      // registered after the runtime's own listener, which closes the session's agents first
      var unusedLost = keeper.onLost((lost, why) -> print("lost " + lost.sessionId() + " closed="
          + horae.agents().get(lost.sessionId()).isEmpty() + " stale=" + why.startsWith("stale epoch")));
      horae.startDueSessions();
      print("ready " + owner);
      Thread stdin = new Thread(ChaosWorker::awaitStop, "chaos-stdin");
      stdin.setDaemon(true);
      stdin.start();
      serve(horae, worker, sessions, perSession);
      while (!stopping) {
        // the due-sessions worker runs on; nothing here to do until the test says stop
        Thread.sleep(100);
      }
    }
  }

  private static void awaitStop() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
        // only "stop" (or the end of stdin) means anything
      }
    } catch (java.io.IOException e) {
      // the test is gone: stop as if told to
    }
    stopping = true;
  }

  /**
   * Opens every session whose log is short of reminders or emails, on two threads, each starting at
   * its own sixth of them, until each has them; sessions another node holds are tried again on the
   * next round.
   */
  private static void serve(HoraeRuntime horae, int worker, int sessions, int perSession) throws Exception {
    Set<String> complete = ConcurrentHashMap.newKeySet();
    Set<String> busy = ConcurrentHashMap.newKeySet();
    List<CompletableFuture<Void>> threads = new ArrayList<>();
    // threads of their own: the common pool may have a single thread on a small machine
    ExecutorService creators = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "chaos-creator");
      t.setDaemon(true);
      return t;
    });
    for (int thread = 0; thread < 2; thread++) {
      int offset = (2 * worker + thread) * sessions / 6;
      threads.add(CompletableFuture.runAsync(() -> {
        while (!stopping && complete.size() < sessions) {
          for (int j = 0; j < sessions && !stopping; j++) {
            String id = sessionId((offset + j) % sessions);
            // the two threads never prompt one session at once
            if (!complete.contains(id) && busy.add(id)) {
              try {
                if (prompt(horae, id, perSession)) {
                  complete.add(id);
                }
              } finally {
                busy.remove(id);
              }
            }
          }
          pause(50);
        }
      }, creators));
    }
    CompletableFuture.allOf(threads.toArray(CompletableFuture[]::new)).get();
    creators.shutdown();
    if (!stopping) {
      print("served");
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
    }
  }

  /** Prompts one session until its log holds its reminders; whether it does. */
  private static boolean prompt(HoraeRuntime horae, String id, int perSession) {
    if (horae.agents().get(id).isPresent()) {
      // the due-sessions worker has it open for a reminder: come back later
      return false;
    }
    RuntimeAgent agent;
    try {
      agent = horae.openAgent(id, "UTC");
    } catch (RuntimeException e) {
      if (!leaseHeld(e)) {
        System.err.println("opening " + id + " failed: " + e);
      }
      return false;
    }
    boolean done = false;
    try {
      settle(agent);
      for (int attempt = 0; attempt < perSession * 3 && !stopping; attempt++) {
        List<SessionEvent> log = agent.session().events();
        if (creates(log) >= perSession && emails(log) >= perSession) {
          done = true;
          break;
        }
        // one more than the prompts already in the log: a tag is never used twice
        horae.prompt(agent, "Job " + id + "-" + jobs(log));
        settle(agent);
      }
    } catch (Exception e) {
      System.err.println("prompting " + id + " stopped: " + e);
    } finally {
      boolean dueHolds = horae.dueSessions().map(d -> d.opened().contains(id)).orElse(false);
      if (!dueHolds) {
        close(horae, agent, id);
      }
    }
    return done;
  }

  /**
   * Closes a session this worker prompted, once no reminder of it comes due in the next seconds.
   * Closing disposes the agent: a reminder its Schedule owner dispatched just before, whose
   * follow-up turn had not started, would never be delivered (the dispatch is durable, the
   * delivery is not), so the worker lets such a reminder run its turn first.
   */
  private static void close(HoraeRuntime horae, RuntimeAgent agent, String id) {
    DueSessions due = horae.dueSessions().orElseThrow();
    try {
      for (int i = 0; i < 100 && !agent.disposed(); i++) {
        settle(agent);
        OptionalLong next = due.index().dueAt(id);
        if (agent.pendingNextTurn().isEmpty()
            && (next.isEmpty() || next.getAsLong() > horae.wallClock().millis() + CLOSE_MARGIN_MS)) {
          break;
        }
        Thread.sleep(100);
      }
    } catch (Exception e) {
      System.err.println("waiting to close " + id + " stopped: " + e);
    }
    var unused = horae.closeSession(id);
  }

  /** Waits, bounded, until the agent is idle and not parked on a call. */
  private static void settle(RuntimeAgent agent) throws Exception {
    for (int i = 0; i < 200; i++) {
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      if (!agent.parked()) {
        return;
      }
      // a scheduled action is performed right after its commit; look again shortly
      Thread.sleep(20);
    }
    throw new IllegalStateException("agent " + agent.id() + " stayed parked");
  }

  private static boolean leaseHeld(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SessionLeaseException refused && refused.code() == SessionLeaseException.Code.LEASE_HELD) {
        return true;
      }
    }
    return false;
  }

  /**
   * The reminders created in a log.
   *
   * @param log a session's events
   * @return the count of {@code schedule/change} creates
   */
  static int creates(List<SessionEvent> log) {
    int n = 0;
    for (SessionEvent e : log) {
      if (e.type().equals("schedule/change") && e.data().path("operation").asText().equals("create")) {
        n++;
      }
    }
    return n;
  }

  /**
   * The email calls in a log.
   *
   * @param log a session's events
   * @return the count of {@code send_email} tool calls
   */
  static int emails(List<SessionEvent> log) {
    int n = 0;
    for (SessionEvent e : log) {
      if (e.type().equals("tool/call") && e.data().path("tool").asText().equals(TOOL)) {
        n++;
      }
    }
    return n;
  }

  /** The worker prompts in a log. */
  private static int jobs(List<SessionEvent> log) {
    int n = 0;
    for (SessionEvent e : log) {
      if (e.type().equals("user/message") && e.data().toString().contains("Job ")
          && !e.data().path("source").path("plugin").asText().equals("tool-schedule")) {
        n++;
      }
    }
    return n;
  }

  /**
   * The email's effect: one row per execution, inserted only while this node still owns the
   * session's lease — on its own clock ({@code keeper.owns}, docs/persistence.md "What leases do not
   * cover") and in the database, in the same transaction as the insert, so a node that was paused
   * between the check and the insert cannot send after another node took the session over.
   */
  private static com.fasterxml.jackson.databind.JsonNode send(DataSource dataSource, String prefix,
      SessionLeaseKeeper keeper, String sessionId, String callId, String owner) {
    Optional<SessionLease> held = keeper.lease(sessionId);
    if (!keeper.owns(sessionId) || held.isEmpty() || !(held.get() instanceof SessionLease.Fenced fenced)) {
      print("fenced " + callId);
      throw new IllegalStateException("this node no longer owns session " + sessionId + "; the email was not sent");
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement lock = c.prepareStatement(
          "SELECT owner, epoch FROM " + prefix + "lease WHERE session_id = ? FOR SHARE")) {
        lock.setString(1, sessionId);
        try (ResultSet r = lock.executeQuery()) {
          if (!r.next() || !owner.equals(r.getString(1)) || r.getLong(2) != fenced.epoch()) {
            c.rollback();
            print("fenced " + callId);
            throw new IllegalStateException("session " + sessionId + " is no longer leased to " + owner
                + " at epoch " + fenced.epoch() + "; the email was not sent");
          }
        }
      }
      try (PreparedStatement insert = c.prepareStatement(
          "INSERT INTO " + prefix + SENT + " (call_id, session_id, owner, epoch) VALUES (?, ?, ?, ?)")) {
        insert.setString(1, callId);
        insert.setString(2, sessionId);
        insert.setString(3, owner);
        insert.setLong(4, fenced.epoch());
        insert.executeUpdate();
      }
      c.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("the email of " + callId + " may not have been sent: " + e.getMessage(), e);
    }
    return Json.parse("{\"sent\":true}");
  }

  /**
   * Answers from the step's newest worker prompt, as a real model would from its request: a {@code
   * Job <tag>} prompt creates a reminder due a few seconds later and sends an email, each call with
   * an id unique across the campaign; a reminder's delivery or a tool result is answered in text.
   */
  private static final class Model implements ModelPort {
    @Override
    public CompletionStage<ModelResponse> complete(ModelRequest request) {
      String tag = null;
      for (ChatMessage.User m : request.latestUserMessages()) {
        if (m.text().startsWith("Job ")) {
          tag = m.text().substring("Job ".length());
        }
      }
      if (tag == null) {
        return CompletableFuture.completedFuture(ModelResponse.text("noted"));
      }
      return CompletableFuture.completedFuture(ModelResponse.calls(
          new ToolCall("rem-" + tag, "schedule_create",
              Json.parse("{\"after_seconds\":" + delaySeconds(tag) + ",\"prompt\":\"follow up " + tag + "\"}")),
          new ToolCall("mail-" + tag, TOOL, Json.parse("{\"to\":\"ada@example.com\",\"subject\":\"" + tag + "\"}"))));
    }
  }
}
