package dev.horae.schedule.tools.internal;

import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ReminderFraming;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.EventTypes;
import dev.horae.schedule.tools.OwnerState;
import dev.horae.spi.time.Cancellable;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The live owner of one adopted root agent (spec §12): derives the earliest target from the
 * durable fold, arms one monotonic timer, re-reads the wall clock on every wake, and dispatches
 * a due reminder through a maintenance claim — followup first, then the id-only dispatch, then a
 * barrier flush after the claim is released.
 *
 * <p>All mutable state is guarded by this object's lock; at most one drain loop and one idle wait
 * exist. Drives run inside the agent's FIFO, so no management transaction interleaves with them.
 */
public final class LiveOwner {

  /** The plugin name used as the reminder message source. */
  public static final String SOURCE_PLUGIN = "tool-schedule";

  private final Host host;
  private final Agent agent;
  private final FoldCache cache;
  private final TransactionQueue queue;
  private final CompletableFuture<Void> released = new CompletableFuture<>();

  private @Nullable Cancellable timer;
  private @Nullable CompletableFuture<Void> idleWait;
  private @Nullable CompletableFuture<Void> run;
  private boolean requested;
  private boolean stopping;
  private boolean faulted;
  private @Nullable CompletableFuture<Void> disposal;
  private long requests;
  private long flushes;

  /**
   * Creates the owner; call {@link #requestDrive()} to start it.
   *
   * @param host the host seams
   * @param agent the adopted root agent
   * @param cache the agent session's fold
   * @param queue the agent's FIFO
   */
  public LiveOwner(Host host, Agent agent, FoldCache cache, TransactionQueue queue) {
    this.host = host;
    this.agent = agent;
    this.cache = cache;
    this.queue = queue;
  }

  /**
   * Asks for a recompute (spec §12.2): cancels the timer and starts a drain loop, or merges into
   * the running one. Never throws.
   */
  public void requestDrive() {
    synchronized (this) {
      requests++;
      if (stopping || faulted) {
        return;
      }
      cancelTimer();
      requested = true;
      if (run != null) {
        return;
      }
      run = new CompletableFuture<>();
    }
    CompletableFuture<Void> started = currentRun();
    try {
      host.agents().runWithoutInitiator(() -> loop(started));
    } catch (RuntimeException e) {
      synchronized (this) {
        if (run == started) {
          run = null;
        }
      }
      started.complete(null);
      warnIfLive("schedule owner could not start a recompute", e);
    }
  }

  private synchronized CompletableFuture<Void> currentRun() {
    CompletableFuture<Void> r = run;
    if (r == null) {
      throw new IllegalStateException("no run in flight");
    }
    return r;
  }

  /**
   * The drain loop (spec §12.2): runs one drive per request until none is pending.
   *
   * <p>Iterative, whatever thread completes the stages. A drive that settles synchronously (a
   * completed flush, an idle agent, a store that persists on the caller's thread) hands back to
   * this loop, which starts the next drive from the same frame; only a drive that is still running
   * when the loop checks makes its completing thread continue the loop, from that thread's own
   * shallow stack. So the stack never grows with the number of dispatches: a burst of thousands of
   * due reminders is drained at constant depth (issue 19). The {@link Handoff} decides, race-free,
   * which of the two continues.
   *
   * <p>{@code requested} is cleared when the drive starts inside the FIFO, not when it is queued
   * (spec §12.2: "clear {@code requested}, execute one drive (§12.3) inside the FIFO"). A request
   * that arrives while the drive waits behind a tool transaction is therefore served by that
   * drive, which folds the log after it; only a request arriving once the drive has started gets
   * another. So a create, whose preflight and barrier both ask (spec §12.2), costs the owner one
   * drive, not two.
   */
  private void loop(CompletableFuture<Void> self) {
    while (true) {
      boolean finished;
      synchronized (this) {
        finished = !requested || stopping || faulted;
        if (finished) {
          run = null;
        }
      }
      if (finished) {
        self.complete(null);
        return;
      }
      Handoff handoff = new Handoff();
      var unused =
          queue
              .submit(this::drive)
              .whenComplete(
                  (ignored, failure) -> {
                    if (failure != null) {
                      fault("schedule owner stopped after a failed run", failure);
                    }
                    if (handoff.settledAfterLoopLeft()) {
                      loop(self);
                    }
                  });
      if (handoff.loopLeavesBeforeSettled()) {
        return;
      }
    }
  }

  /**
   * Who continues the drain loop after a drive: the loop itself when the drive settled before the
   * loop looked (no new frame), or the drive's completion when the loop had already returned.
   * Exactly one of the two wins.
   */
  private static final class Handoff {
    private static final int RUNNING = 0;
    private static final int SETTLED = 1;
    private static final int LEFT = 2;
    private final AtomicInteger state = new AtomicInteger(RUNNING);

    /** Called by the completion; true when the loop had already left, so the completion continues. */
    boolean settledAfterLoopLeft() {
      return !state.compareAndSet(RUNNING, SETTLED);
    }

    /** Called by the loop; true when the drive is still running, so the loop returns. */
    boolean loopLeavesBeforeSettled() {
      return state.compareAndSet(RUNNING, LEFT);
    }
  }

  /**
   * One drive (spec §12.3).
   *
   * <p>Every drive starts with step 2's preflight flush, also the one a previous drive's dispatch
   * barrier asked for: a dispatch barrier makes the dispatch durable, and the next preflight
   * usually also carries the reminder turn that the released claim started (its {@code
   * user/message}), which keeps the time a crash can find a durable dispatch without its delivery
   * as short as the flushes allow. Skipping that preflight after a barrier was tried and reverted:
   * the crash campaign then found dispatched reminders whose turn never became durable
   * (docs/schedule.md, "Bursts").
   */
  private CompletionStage<Void> drive() {
    synchronized (this) {
      requested = false;
      cancelTimer();
      if (stopping) {
        return done();
      }
    }
    if (!live()) {
      return done();
    }
    return flush()
        .thenCompose(
            ok -> {
              if (!ok) {
                warnIfLive("schedule owner preflight flush was not confirmed", null);
                return done();
              }
              if (isStopping() || !live()) {
                return done();
              }
              Optional<ScheduleRecord> earliest;
              try {
                earliest = cache.refresh().earliest();
              } catch (CorruptScheduleLogException e) {
                fault("schedule owner found a corrupt log: " + e.reason(), null);
                return done();
              }
              if (earliest.isEmpty()) {
                return done();
              }
              long wakeNow = host.wallClock().millis();
              long target = earliest.get().scheduledAtMillis();
              if (wakeNow < target) {
                arm(target - wakeNow);
                return done();
              }
              return claim();
            });
  }

  private CompletionStage<Void> claim() {
    CompletionStage<Boolean> maintenance;
    try {
      maintenance = agent.runMaintenance(signal -> CompletableFuture.completedFuture(task()));
    } catch (RuntimeException busy) {
      startIdleWait();
      return done();
    }
    return maintenance.thenCompose(
        dispatched -> {
          if (!dispatched) {
            return done();
          }
          return flush()
              .thenAccept(
                  ok -> {
                    if (!ok) {
                      warnIfLive("schedule dispatch barrier flush was not confirmed", null);
                    } else if (!isStopping() && live()) {
                      requestDrive();
                    }
                  });
        });
  }

  /**
   * The maintenance task (spec §12.4); runs inside the claim and dispatches exactly one record.
   *
   * <p>One record per claim is the rule, even in a burst: spec §12.4 ("several due records are
   * handled one at a time: each gets its own claim and its own reminder turn, and the next waits
   * until the agent is idle again") and the per-reminder order of S193 ({@code flush → claim →
   * followup → dispatch append → release → flush}) leave no room to queue a second followup inside
   * the same claim, and the seed's maintenance task likewise queues one followup and appends one
   * dispatch. So a burst of n due records costs n claims and 2n + 1 owner flushes (each drive's
   * preflight and its dispatch barrier, spec §12.3 steps 2 and 8, and a last preflight); what
   * keeps a burst cheap is that each drive is O(log n) (the fold's due-order heap) and runs at
   * constant stack depth.
   */
  private boolean task() {
    if (isStopping() || !live()) {
      return false;
    }
    Optional<ScheduleRecord> earliest;
    try {
      earliest = cache.refresh().earliest();
    } catch (CorruptScheduleLogException e) {
      fault("schedule owner found a corrupt log: " + e.reason(), null);
      return false;
    }
    if (earliest.isEmpty()) {
      return false;
    }
    ScheduleRecord due = earliest.get();
    long decisionNow = host.wallClock().millis();
    if (decisionNow < due.scheduledAtMillis()) {
      arm(due.scheduledAtMillis() - decisionNow);
      return false;
    }
    try {
      UserMessage message =
          host.messages().text(ReminderFraming.text(due), MessageSource.plugin(SOURCE_PLUGIN));
      agent.followup(message);
    } catch (RuntimeException e) {
      warnIfLive("schedule reminder " + due.id() + " could not be queued", e);
      return false;
    }
    try {
      agent
          .session()
          .append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(new ScheduleChange.Dispatch(due.id())));
    } catch (RuntimeException e) {
      // the followup may already be queued: a retry could deliver it twice
      fault("schedule dispatch of " + due.id() + " could not be appended", e);
      return false;
    }
    return true;
  }

  private CompletionStage<Boolean> flush() {
    synchronized (this) {
      flushes++;
    }
    return Flushes.confirmed(host.sessions(), agent.session());
  }

  /**
   * A snapshot of the owner's state for diagnostics and tests.
   *
   * @return requests received, flushes issued, and the flags
   */
  public synchronized OwnerState state() {
    return new OwnerState(requests, flushes, faulted, timer != null, idleWait != null, stopping);
  }

  private void arm(long delayMillis) {
    synchronized (this) {
      if (stopping || faulted) {
        return;
      }
      cancelTimer();
      timer = host.timers().schedule(Duration.ofMillis(delayMillis), this::requestDrive);
    }
  }

  private void startIdleWait() {
    CompletableFuture<Void> wait;
    synchronized (this) {
      if (idleWait != null || stopping || faulted) {
        return;
      }
      wait = new CompletableFuture<>();
      idleWait = wait;
    }
    if (!live()) {
      clearIdleWait(wait);
      return;
    }
    CompletionStage<Void> idle;
    try {
      idle = agent.whenIdle();
    } catch (RuntimeException e) {
      idle = CompletableFuture.failedFuture(e);
    }
    var unused =
        idle.toCompletableFuture()
            .applyToEither(released, v -> true)
            .whenComplete(
                (ignored, failure) -> {
                  clearIdleWait(wait);
                  if (failure != null) {
                    warnIfLive("schedule owner idle wait failed", failure);
                  } else {
                    requestDrive();
                  }
                });
  }

  private void clearIdleWait(CompletableFuture<Void> wait) {
    synchronized (this) {
      if (idleWait == wait) {
        idleWait = null;
      }
    }
    wait.complete(null);
  }

  /**
   * Disposes the owner (spec §12.8): stops new work, cancels the timer, releases the idle wait and
   * awaits the in-flight run. Appends nothing. Idempotent.
   *
   * @return a stage completing when in-flight work settled
   */
  public CompletionStage<Void> dispose() {
    CompletableFuture<Void> inFlight;
    CompletableFuture<Void> waiting;
    synchronized (this) {
      if (disposal != null) {
        return disposal;
      }
      stopping = true;
      requested = false;
      cancelTimer();
      inFlight = run;
      waiting = idleWait;
      disposal = new CompletableFuture<>();
    }
    released.complete(null);
    CompletableFuture<Void> a = inFlight == null ? done().toCompletableFuture() : inFlight;
    CompletableFuture<Void> b = waiting == null ? done().toCompletableFuture() : waiting;
    CompletableFuture<Void> result = currentDisposal();
    var unused = CompletableFuture.allOf(a.handle((v, e) -> null), b.handle((v, e) -> null))
        .whenComplete((v, e) -> result.complete(null));
    return result;
  }

  private synchronized CompletableFuture<Void> currentDisposal() {
    CompletableFuture<Void> d = disposal;
    if (d == null) {
      throw new IllegalStateException("not disposing");
    }
    return d;
  }

  /**
   * Whether the owner stopped for good (until the agent is recreated).
   *
   * @return true after a fault
   */
  public synchronized boolean faulted() {
    return faulted;
  }

  /**
   * Whether a timer is armed.
   *
   * @return true while a timer is pending
   */
  public synchronized boolean armed() {
    return timer != null;
  }

  private synchronized boolean isStopping() {
    return stopping;
  }

  private void fault(String message, @Nullable Throwable cause) {
    synchronized (this) {
      faulted = true;
      requested = false;
      cancelTimer();
    }
    host.warnings().warn(message, Optional.ofNullable(cause));
  }

  private void cancelTimer() {
    Cancellable t = timer;
    timer = null;
    if (t != null) {
      t.cancel();
    }
  }

  /** Live: the registry still maps the id to this exact agent and it is a root. */
  private boolean live() {
    Optional<Agent> current = host.agents().get(agent.id());
    if (current.isEmpty() || current.get() != agent) {
      return false;
    }
    for (Agent root : host.agents().roots()) {
      if (root == agent) {
        return true;
      }
    }
    return false;
  }

  private void warnIfLive(String message, @Nullable Throwable cause) {
    if (live()) {
      host.warnings().warn(message, Optional.ofNullable(cause));
    }
  }

  private static CompletionStage<Void> done() {
    return CompletableFuture.completedFuture(null);
  }
}
