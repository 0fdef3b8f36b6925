package dev.horae.benchmarks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.event.AbstractSchedulerListener;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariDataSource;
import dev.horae.gate.runtime.DispatchQueue;
import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.SessionDispatchQueue;
import dev.horae.runtime.DueSessions;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.tools.ScheduleDueIndex;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.time.SystemTime;
import dev.horae.store.JdbcSessionStore;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Due work drained from one embedded PostgreSQL, side by side (issue 15): {@code n} units of work
 * all due now, and the time until the last one is done and durable. Executions per second are
 * {@code n} divided by the reported drain time.
 *
 * <ul>
 *   <li>{@code db-scheduler}: {@code n} one-time tasks of db-scheduler 16.7.1 (rows of its {@code
 *       scheduled_tasks} table, execution time now), executed by one scheduler with {@code
 *       workers} threads; a task's handler does nothing, its completion deletes its row. Done when
 *       the scheduler reported every execution complete and the table is empty.
 *   <li>{@code horae-reminders}: {@code n} sessions of the JDBC session store, each with one
 *       reminder already due (docs/persistence.md, "The due index"), served by {@code workers}
 *       runtimes (nodes) on the same database, each with leases of its own and the due-sessions
 *       worker: a node claims a due session, opens it, the Schedule owner appends the dispatch, the
 *       reminder's turn runs against a model that answers at once, the log is flushed, and the
 *       worker's next pass closes the idle session. Done when every session has been closed by a
 *       pass; the teardown checks every stored log holds exactly one dispatch.
 *   <li>{@code horae-actions}: {@code n} turns of a {@link HoraeRuntime}'s agents (one per
 *       session) parked on the scheduled action a gate turned their one tool call into, committed
 *       with its dispatch record, performed by the runtime's one {@link DurableDispatcher} ({@link
 *       HoraeRuntime#durableDispatcher()}) with {@code workers} concurrent claims, over the
 *       session-log dispatch queue ({@link SessionDispatchQueue}) on the JDBC session store; every
 *       commit and dispatch fact is flushed to the store before it counts. The tool completes on a
 *       separate pool, so claims overlap. Done when every turn has ended and no dispatch record is
 *       left.
 * </ul>
 *
 * <p>The systems do different amounts of work per unit: db-scheduler locks and deletes one row;
 * Horae appends several events to a session log per reminder (dispatch, the turn, the follow-up
 * state) and flushes it, and per scheduled action commits the claim, the tool's progress and the
 * Run's end. Both poll every 100 ms when they find nothing, on the real clock ({@link
 * SystemTime}); this is a throughput benchmark, not a test. Setup creates a fresh database per
 * iteration (untimed); the server is started once per trial.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class DueWorkBenchmark {

  /** Which system drains the due work. */
  @Param({"db-scheduler", "horae-reminders", "horae-actions"})
  public String system;

  /** Worker threads (db-scheduler), nodes (reminders) or concurrent claims (scheduled actions). */
  @Param({"1", "2", "4"})
  public int workers;

  /** Units of due work per drain. */
  @Param({"1000"})
  public int n;

  static final Duration POLL = Duration.ofMillis(100);
  private static final Duration DRAIN_LIMIT = Duration.ofMinutes(5);
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private BenchPostgres server;
  private HikariDataSource pool;
  private Drain drain;

  /** One system's drain over one fresh database. */
  interface Drain {
    /** Starts the workers and returns once all work is done. */
    void run() throws Exception;

    /** Stops the workers and checks the work was done exactly once. */
    void finish() throws Exception;
  }

  /** Starts the embedded server once per trial. */
  @Setup(Level.Trial)
  public void startServer() throws IOException {
    server = BenchPostgres.start();
  }

  /**
   * A fresh database with {@code n} units of due work for the system.
   *
   * @throws Exception when the database cannot be prepared
   */
  @Setup(Level.Iteration)
  public void prepare() throws Exception {
    pool = server.freshDatabase(4 * workers + 4);
    drain = switch (system) {
      case "db-scheduler" -> new DbSchedulerDrain(pool, n, workers);
      case "horae-reminders" -> new ReminderDrain(pool, n, workers);
      case "horae-actions" -> new ActionDrain(pool, n, workers);
      default -> throw new IllegalArgumentException("unknown system " + system);
    };
  }

  /**
   * One drain of {@code n} units of due work.
   *
   * @return {@code n}, so the work is not dead code
   * @throws Exception when the drain fails or exceeds its limit
   */
  @Benchmark
  public int drain() throws Exception {
    drain.run();
    return n;
  }

  /**
   * Checks and stops the drain, drops its database.
   *
   * @throws Exception when the check fails
   */
  @TearDown(Level.Iteration)
  public void finish() throws Exception {
    try {
      drain.finish();
    } finally {
      server.drop(pool);
    }
  }

  /** Stops the server. */
  @TearDown(Level.Trial)
  public void stopServer() throws IOException {
    server.close();
  }

  private static void await(CountDownLatch done, String what) throws InterruptedException {
    if (!done.await(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(what + " not drained within " + DRAIN_LIMIT + ": " + done.getCount() + " left");
    }
  }

  // ---------------------------------------------------------------- db-scheduler

  /** db-scheduler's one-time tasks, one scheduler with {@code workers} threads. */
  static final class DbSchedulerDrain implements Drain {
    // db-scheduler's PostgreSQL table as its documentation gives it (version 16)
    private static final String DDL = "create table scheduled_tasks (task_name text not null, task_instance text not null, "
        + "task_data bytea, execution_time timestamp with time zone not null, picked boolean not null, picked_by text, "
        + "last_success timestamp with time zone, last_failure timestamp with time zone, consecutive_failures int, "
        + "last_heartbeat timestamp with time zone, version bigint not null, priority smallint, "
        + "primary key (task_name, task_instance))";

    private final HikariDataSource pool;
    private final CountDownLatch done;
    private final Scheduler scheduler;

    DbSchedulerDrain(HikariDataSource pool, int n, int workers) throws SQLException {
      this.pool = pool;
      this.done = new CountDownLatch(n);
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        s.execute(DDL);
        s.execute("create index execution_time_idx on scheduled_tasks (execution_time)");
        s.execute("create index last_heartbeat_idx on scheduled_tasks (last_heartbeat)");
        s.execute("create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)");
      }
      OneTimeTask<Void> task = Tasks.oneTime("bench").execute((instance, context) -> { });
      // the rows db-scheduler's client writes for a task without data, in one batch
      try (Connection c = pool.getConnection(); PreparedStatement p = c.prepareStatement(
          "insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version) values (?, ?, ?, false, 1)")) {
        Timestamp now = Timestamp.from(SystemTime.wallClock().instant());
        for (int i = 0; i < n; i++) {
          p.setString(1, "bench");
          p.setString(2, "task-" + i);
          p.setTimestamp(3, now);
          p.addBatch();
        }
        p.executeBatch();
      }
      this.scheduler = Scheduler.create(pool, task).threads(workers).pollingInterval(POLL)
          .addSchedulerListener(new AbstractSchedulerListener() {
            @Override
            public void onExecutionComplete(ExecutionComplete complete) {
              done.countDown();
            }
          })
          .build();
    }

    @Override
    public void run() throws Exception {
      scheduler.start();
      await(done, "db-scheduler tasks");
      // the listener may hear of the last executions before their rows are deleted: wait for the deletes
      while (remaining() > 0) {
        Thread.onSpinWait();
      }
    }

    private long remaining() throws SQLException {
      try (Connection c = pool.getConnection(); Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select count(*) from scheduled_tasks")) {
        r.next();
        return r.getLong(1);
      }
    }

    @Override
    public void finish() throws Exception {
      scheduler.stop();
      if (remaining() != 0) {
        throw new IllegalStateException("db-scheduler left " + remaining() + " rows");
      }
    }
  }

  // ---------------------------------------------------------------- Horae reminders

  /** Sessions with one due reminder each, served by {@code workers} leased runtimes. */
  static final class ReminderDrain implements Drain {
    private static final ModelPort ANSWER = request -> CompletableFuture.completedFuture(ModelResponse.text("noted"));

    private final HikariDataSource pool;
    private final JdbcSessionStore store;
    private final int n;
    private final int nodes;
    private final List<HoraeRuntime> runtimes = new ArrayList<>();
    private final CountDownLatch done;

    ReminderDrain(HikariDataSource pool, int n, int nodes) {
      this.pool = pool;
      this.n = n;
      this.nodes = nodes;
      this.done = new CountDownLatch(n);
      this.store = JdbcSessionStore.create(pool, JdbcSessionStore.DEFAULT_PREFIX, ScheduleDueIndex::track);
      store.migrate();
      Instant now = SystemTime.wallClock().instant();
      String due = UTC.format(now.minusSeconds(1));
      for (int i = 0; i < n; i++) {
        SessionEvent create = SessionEvent.of(0, "schedule/change", now.toEpochMilli(), Json.parse(
            "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"at\","
                + "\"prompt\":\"check " + i + "\",\"scheduledAt\":\"" + due + "\"}}"));
        store.persist(SessionHeader.root(id(i), now.toEpochMilli(), Optional.empty()), List.of(create))
            .toCompletableFuture().join();
      }
      if (store.dueIndex().orElseThrow().dueBy(Long.MAX_VALUE, n + 1).size() != n) {
        throw new IllegalStateException("the due index does not hold " + n + " sessions");
      }
    }

    private static String id(int i) {
      return "due-" + i;
    }

    @Override
    public void run() throws Exception {
      DueSessions.Settings settings = DueSessions.Settings.DEFAULTS.withMaxOpen(32).withPoll(POLL)
          .withKeepOpenWithin(Duration.ZERO);
      for (int i = 0; i < nodes; i++) {
        // a store object per node, as separate processes would have, on the shared database
        JdbcSessionStore node = JdbcSessionStore.create(
            pool, JdbcSessionStore.DEFAULT_PREFIX, ScheduleDueIndex::track);
        HoraeRuntime horae = HoraeRuntime.builder()
            .leases(node.leases("node-" + i, Duration.ofSeconds(30), SystemTime.wallClock()))
            .dueSessions(settings).model(ANSWER).build();
        runtimes.add(horae);
        horae.install(SchedulePlugin.create());
        var unused = horae.dueSessions().orElseThrow().onPass(pass -> pass.closed().forEach(id -> done.countDown()));
      }
      for (HoraeRuntime horae : runtimes) {
        var unused = horae.startDueSessions();
      }
      await(done, "reminders");
    }

    @Override
    public void finish() {
      runtimes.forEach(HoraeRuntime::close);
      for (int i = 0; i < n; i++) {
        StoredSession s = store.load(id(i)).orElseThrow();
        long dispatches = s.events().stream().filter(e -> e.type().equals("schedule/change")
            && e.data().path("operation").asText().equals("dispatch")).count();
        if (dispatches != 1) {
          throw new IllegalStateException(id(i) + " has " + dispatches + " dispatches");
        }
      }
    }
  }

  // ---------------------------------------------------------------- Horae scheduled actions

  /** Turns parked on a committed scheduled action each, performed by one durable dispatcher. */
  static final class ActionDrain implements Drain {
    private final List<String> runs = new ArrayList<>();
    private final ExecutorService work = Executors.newCachedThreadPool();
    private final ExecutorService tools = Executors.newFixedThreadPool(4);
    private final HoraeRuntime runtime;
    private final DispatchQueue queue;
    private final CountDownLatch done;
    private final AtomicInteger toolRuns = new AtomicInteger();
    private final int workers;
    private @Nullable DurableDispatcher dispatcher;

    ActionDrain(HikariDataSource pool, int n, int workers) {
      this.workers = workers;
      JdbcSessionStore store = JdbcSessionStore.create(pool);
      store.migrate();
      // the engine commits through the session-log queue's store, so every park has its record
      this.runtime = HoraeRuntime.builder().store(store).model(ActionDrain::infer)
          .dispatchQueue(SessionDispatchQueue::over).build();
      this.queue = runtime.dispatchQueue().orElseThrow();
      runtime.tools().register(ToolDefinition.builder("echo").description("Echoes.")
          .parameters(Json.mapper().createObjectNode().put("type", "object"))
          .body((args, exec) -> CompletableFuture.supplyAsync(() -> {
            toolRuns.incrementAndGet();
            return (com.fasterxml.jackson.databind.JsonNode) Json.mapper().getNodeFactory().textNode("echoed");
          }, tools)).build());
      var unused = runtime.gates().register(ToolGate.named("later", (call, state) ->
          CompletableFuture.completedFuture(GateOutcome.schedule("sched-" + call.callId()))));
      // n turn ends during preparation would be wrong: none is expected before the drain
      this.done = new CountDownLatch(n);
      var unusedEnds = runtime.agents().onTurnEnd(outcome -> done.countDown());
      Semaphore parked = new Semaphore(0);
      var unusedParks = runtime.onAwaiting(call -> {
        synchronized (runs) {
          runs.add(call.runId());
        }
        parked.release();
      });
      for (int i = 0; i < n; i++) {
        runtime.prompt(runtime.openAgent("action-" + i), "go");
      }
      try {
        if (!parked.tryAcquire(n, DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException(parked.availablePermits() + " of " + n + " turns parked on their scheduled action");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while parking", e);
      }
    }

    private static CompletionStage<ModelResponse> infer(ModelRequest r) {
      if (r.step() <= 1) {
        ObjectNode args = Json.mapper().createObjectNode().put("text", "ping");
        return CompletableFuture.completedFuture(ModelResponse.calls(new ToolCall("call-" + r.step(), "echo", args)));
      }
      return CompletableFuture.completedFuture(ModelResponse.text("done"));
    }

    @Override
    public void run() throws Exception {
      DurableDispatcher d = runtime.durableDispatcher()
          .executor(work).owner("bench").options(DispatcherOptions.defaults().pollingEvery(POLL.toMillis())
              .withWorkers(workers)).build();
      dispatcher = d;
      d.start();
      await(done, "scheduled actions");
      // the terminal commit comes before the settle that removes the dispatch record
      for (String runId : runs) {
        while (queue.record(runId).isPresent()) {
          Thread.onSpinWait();
        }
      }
    }

    @Override
    public void finish() throws InterruptedException {
      DurableDispatcher d = dispatcher;
      if (d != null) {
        d.close();
      }
      runtime.close();
      work.shutdown();
      tools.shutdown();
      boolean stopped = work.awaitTermination(30, TimeUnit.SECONDS) && tools.awaitTermination(30, TimeUnit.SECONDS);
      if (!stopped) {
        throw new IllegalStateException("dispatcher work did not stop");
      }
      if (toolRuns.get() != runs.size()) {
        throw new IllegalStateException(toolRuns.get() + " tool runs for " + runs.size() + " scheduled actions");
      }
    }
  }
}
