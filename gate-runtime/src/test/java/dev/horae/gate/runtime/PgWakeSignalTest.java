package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.AwaitTarget;
import dev.horae.gate.PendingTool;
import dev.horae.gate.ToolAwaitReason;
import dev.horae.spi.session.Json;
import dev.horae.store.Postgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL wake signal (gate specification §12.5.7): the queue notifies its prefix's channel
 * whenever a change makes work claimable, a {@link PgWakeSignal} on that channel wakes the
 * dispatcher waiting on it, queues on other prefixes do not, and the listener reconnects after its
 * connection is killed and looks once when it is back (WAKE-02). Every wait is on a latch or a
 * future bounded far below the JUnit timeout; the reconnect backoff is a timer the test runs.
 *
 * <p>Notifications reach one listener in commit order, so "this change sent none" is checked by
 * making a change that does send one afterwards and counting what arrived when it did.
 */
@Tag("slow")
@Tag("postgres")
class PgWakeSignalTest {

  private static final long BOUND_S = 30;
  // so long that only a wake, never the poll, can make the dispatcher claim within the test
  private static final long HOUR = 3_600_000;

  /** Runs each task on a new daemon thread, counting the tasks that have returned. */
  static final class Threads implements java.util.concurrent.Executor {
    final CountDownLatch ended = new CountDownLatch(1);

    @Override
    public synchronized void execute(Runnable r) {
      Thread t = new Thread(() -> {
        try {
          r.run();
        } finally {
          ended.countDown();
        }
      }, "pg-wake-listener-test");
      t.setDaemon(true);
      t.start();
    }
  }

  private DispatchRig rig;
  private JdbcDispatchQueue queue;
  private final QueuedTimers timers = new QueuedTimers();
  private final Threads threads = new Threads();
  private final List<AutoCloseable> closing = new ArrayList<>();

  @BeforeEach
  void fresh() {
    rig = DispatchRig.of(DispatchRig.Kind.JDBC);
    queue = (JdbcDispatchQueue) rig.queue;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
    rig.close();
  }

  /** A signal on the rig queue's channel, its first connect's hint taken, so it is listening. */
  private PgWakeSignal listening() throws Exception {
    PgWakeSignal s = PgWakeSignal.builder(Postgres.started(), queue.prefix()).timers(timers).executor(threads)
        .checkInterval(Duration.ofMillis(HOUR)).start();
    closing.add(s);
    await(s.next().toCompletableFuture());
    assertThat(s.connects()).isEqualTo(1);
    return s;
  }

  private static void await(CompletableFuture<Void> hint) throws Exception {
    hint.get(BOUND_S, TimeUnit.SECONDS);
  }

  /** Another process's queue on the same tables: it notifies, but publishes no local hint. */
  private JdbcDispatchQueue otherNode() {
    return JdbcDispatchQueue.over(Postgres.started(), queue.prefix(), rig.host.clock(), rig.host.sessions()::get);
  }

  private ResumeCommand input(String runId) {
    return ResumeCommand.of("c-1", runId, rig.thread, DispatchRig.SNAPSHOT, "fp", new ResumeResult.Input("hi"), 0);
  }

  private static int listenerBackend(String channel) throws SQLException {
    try (Connection c = Postgres.started().getConnection();
        PreparedStatement p = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE query = ?")) {
      p.setString(1, "LISTEN " + channel);
      try (ResultSet r = p.executeQuery()) {
        assertThat(r.next()).as("a backend listens on " + channel).isTrue();
        int pid = r.getInt(1);
        assertThat(r.next()).as("one backend listens on " + channel).isFalse();
        return pid;
      }
    }
  }

  private static void terminate(int pid) throws SQLException {
    try (Connection c = Postgres.started().getConnection();
        PreparedStatement p = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
      p.setInt(1, pid);
      try (ResultSet r = p.executeQuery()) {
        assertThat(r.next() && r.getBoolean(1)).as("backend " + pid + " terminated").isTrue();
      }
    }
  }

  // ---------------------------------------------------------------- the dispatcher wakes

  @Test
  void aSubmitInAnotherProcessWakesADispatcherWaitingOnItsHourLongPoll() throws Exception {
    PgWakeSignal signal = listening();
    ExecutorService work = Executors.newSingleThreadExecutor();
    closing.add(work::shutdownNow);
    DurableDispatcher d = rig.dispatcher("owner-a").executor(work).wake(signal)
        .options(new DispatcherOptions(HOUR, 0, HOUR, 5, HOUR, 1)).build();
    closing.add(d);
    d.start();
    // the start's own claim ran and found nothing: from here only a wake makes it claim
    work.submit(() -> { }).get(BOUND_S, TimeUnit.SECONDS);
    assertThat(rig.target.calls).isEmpty();

    assertThat(otherNode().submit(rig.activation("run-1", "go"), rig.now())).isTrue();

    assertThat(rig.target.asked.tryAcquire(BOUND_S, TimeUnit.SECONDS)).as("the woken dispatcher drove the Run").isTrue();
    assertThat(rig.target.calls).containsExactly("execute run-1");
    assertThat(signal.notifications()).isEqualTo(1);
  }

  @Test
  void aQueueOnAnotherPrefixDoesNotWakeIt() throws Exception {
    PgWakeSignal signal = listening();
    JdbcDispatchQueue elsewhere = DispatchRig.jdbcQueue(rig.host);
    assertThat(elsewhere.wakeChannel()).isNotEqualTo(queue.wakeChannel());
    CompletableFuture<Void> hint = signal.next().toCompletableFuture();

    assertThat(elsewhere.submit(rig.activation("run-b", "go"), rig.now())).isTrue();
    assertThat(otherNode().submit(rig.activation("run-a", "go"), rig.now())).isTrue();

    await(hint);
    assertThat(signal.notifications()).as("only the own prefix's submit arrived").isEqualTo(1);
    assertThat(signal.next().toCompletableFuture()).as("no hint is left over").isNotDone();
  }

  @Test
  void theChannelIsTheQueuesPrefixFollowedByDispatchWake() {
    assertThat(JdbcDispatchQueue.wakeChannel("gate_")).isEqualTo("gate_dispatch_wake");
    assertThat(queue.wakeChannel()).isEqualTo(queue.prefix() + "dispatch_wake");
    assertThatThrownBy(() -> JdbcDispatchQueue.wakeChannel("Bad-Prefix"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dispatch table prefix must match");
    assertThatThrownBy(() -> PgWakeSignal.builder(Postgres.started(), "x;LISTEN y"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dispatch table prefix must match");
  }

  // ---------------------------------------------------------------- what notifies

  @Test
  void anAnswerOrACancelForAnAwaitingRecordNotifiesAndOneForARunningRecordWaitsForItsSettle() throws Exception {
    PgWakeSignal signal = listening();
    JdbcDispatchQueue other = otherNode();
    assertThat(other.submit(rig.activation("run-1", "go"), rig.now())).isTrue();
    await(signal.next().toCompletableFuture());
    DispatchClaim c = queue.claim("owner-a", HOUR, rig.now(), 5).orElseThrow();
    assertThat(queue.settle(c, DispatchQueue.Settlement.AWAITING, List.of()))
        .isEqualTo(DispatchQueue.SettleResult.SETTLED);

    CompletableFuture<Void> hint = signal.next().toCompletableFuture();
    other.submitResume(input("run-1"), rig.now());
    await(hint);
    assertThat(signal.notifications()).as("the plain awaiting settle sent none; the answer one").isEqualTo(2);

    c = queue.claim("owner-a", HOUR, rig.now(), 5).orElseThrow();
    other.cancel("run-1", rig.thread, rig.now());
    other.submitResume(input("run-1"), rig.now());
    hint = signal.next().toCompletableFuture();
    assertThat(queue.settle(c, DispatchQueue.Settlement.AWAITING, List.of()))
        .isEqualTo(DispatchQueue.SettleResult.SETTLED);
    await(hint);
    assertThat(queue.record("run-1").orElseThrow().status()).isEqualTo(DispatchStatus.PENDING);
    assertThat(signal.notifications()).as("a running record's answer and cancel waited for the settle").isEqualTo(3);

    hint = signal.next().toCompletableFuture();
    other.cancel("run-1", rig.thread, rig.now());
    await(hint);
    assertThat(signal.notifications()).isEqualTo(4);
  }

  @Test
  void reconciliationAndTheOutboxNotifyButAnAwaitingSettleDoesNot() throws Exception {
    PgWakeSignal signal = listening();
    CompletableFuture<Void> hint = signal.next().toCompletableFuture();
    assertThat(otherNode().reconcile("run-r", rig.thread, rig.now())).isTrue();
    await(hint);
    assertThat(signal.notifications()).isEqualTo(1);

    // a Run parks on a scheduled action: the outbox row, then the hint
    hint = signal.next().toCompletableFuture();
    ResumeTicket ticket = ResumeTicket.of("sched-1", "run-1", rig.thread, DispatchRig.SNAPSHOT, "fp",
        AwaitTarget.toolCall(ToolAwaitReason.SCHEDULED_ACTION, "call-1", new PendingTool("echo", Json.parse("{}"))));
    var unused = rig.store().commit(new ThreadCommit(rig.thread, new RunDisposition.Awaiting(ticket), List.of(),
        List.of(), List.of()), CommitConditions.none()).toCompletableFuture().get(BOUND_S, TimeUnit.SECONDS);
    await(hint);
    assertThat(signal.notifications()).isEqualTo(2);
    assertThat(rig.store().view().run("run-1").orElseThrow().ticket()).as("committed when the hint came").isPresent();

    // a settle leaving the record awaiting and a duplicate submit make nothing claimable
    DispatchClaim c = queue.claim("owner-a", HOUR, rig.now(), 5).orElseThrow();
    assertThat(queue.settle(c, DispatchQueue.Settlement.AWAITING, List.of()))
        .isEqualTo(DispatchQueue.SettleResult.SETTLED);
    assertThat(otherNode().reconcile("run-r", rig.thread, rig.now())).isFalse();
    hint = signal.next().toCompletableFuture();
    assertThat(otherNode().submit(rig.activation("run-2", "go"), rig.now())).isTrue();
    await(hint);
    assertThat(signal.notifications()).isEqualTo(3);
  }

  // ---------------------------------------------------------------- reconnect and close

  @Test
  void afterItsBackendIsTerminatedItReconnectsAfterTheBackoffLooksOnceAndIsWokenAgain() throws Exception {
    PgWakeSignal signal = listening();
    terminate(listenerBackend(signal.channel()));

    QueuedTimers.Scheduled backoff = timers.take();
    assertThat(backoff.delay).isEqualTo(PgWakeSignal.DEFAULT_RECONNECT_BACKOFF).isEqualTo(Duration.ofMillis(500));
    assertThat(signal.connects()).as("no reconnect before the backoff elapsed").isEqualTo(1);
    CompletableFuture<Void> look = signal.next().toCompletableFuture();
    assertThat(look).isNotDone();
    backoff.task.run();

    await(look);
    assertThat(signal.connects()).as("a hint after the reconnect, not before").isEqualTo(2);
    assertThat(signal.notifications()).isZero();
    CompletableFuture<Void> hint = signal.next().toCompletableFuture();
    assertThat(otherNode().submit(rig.activation("run-1", "go"), rig.now())).isTrue();
    await(hint);
    assertThat(signal.notifications()).isEqualTo(1);
    assertThat(listenerBackend(signal.channel())).as("the new connection listens").isPositive();
  }

  @Test
  void aFailedReconnectWaitsTheBackoffAgain() throws Exception {
    CountDownLatch refused = new CountDownLatch(2);
    javax.sql.DataSource down = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, m, args) -> {
          refused.countDown();
          throw new SQLException("connection refused");
        });
    PgWakeSignal signal = PgWakeSignal.builder(down, queue.prefix()).timers(timers).executor(threads)
        .reconnectBackoff(Duration.ofMillis(250)).start();
    closing.add(signal);
    QueuedTimers.Scheduled first = timers.take();
    assertThat(first.delay).isEqualTo(Duration.ofMillis(250));
    first.task.run();
    assertThat(refused.await(BOUND_S, TimeUnit.SECONDS)).isTrue();
    assertThat(timers.take().delay).isEqualTo(Duration.ofMillis(250));
    assertThat(signal.connects()).isZero();
    assertThat(signal.next().toCompletableFuture()).as("no hint without a connection").isNotDone();
  }

  @Test
  void closeAbortsTheListeningConnectionSoItsHourLongWaitEndsAndTheLoopReturns() throws Exception {
    PgWakeSignal signal = listening();
    assertThat(signal.channel()).isEqualTo(queue.wakeChannel());
    signal.close();
    // close waits on the test's timers, which never fire: it returns only because the loop ended
    assertThat(threads.ended.await(BOUND_S, TimeUnit.SECONDS)).as("the loop returned").isTrue();
    signal.close();
    // a local hint still reaches a waiter: the port keeps working without the listener
    CompletableFuture<Void> hint = signal.next().toCompletableFuture();
    signal.publish();
    assertThat(hint).isDone();
  }

  @Test
  void closeDuringTheBackoffCancelsTheReconnect() throws Exception {
    PgWakeSignal signal = listening();
    terminate(listenerBackend(signal.channel()));
    QueuedTimers.Scheduled backoff = timers.take();
    signal.close();
    assertThat(threads.ended.await(BOUND_S, TimeUnit.SECONDS)).as("the loop returned").isTrue();
    assertThat(backoff.cancelled).isTrue();
    assertThat(signal.connects()).isEqualTo(1);
  }
}
