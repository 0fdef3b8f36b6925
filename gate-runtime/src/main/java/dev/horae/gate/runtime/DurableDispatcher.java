package dev.horae.gate.runtime;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.AbortController;
import dev.horae.spi.Registration;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable dispatcher (gate specification §12.5): claims dispatch records from a {@link
 * DispatchQueue} under leases, drives each claimed Run by the worker's decision procedure of
 * §12.5.4 with every commit fenced by the claim, renews held claims, ends a Run whose retry budget
 * is spent {@code indeterminate} (§12.5.5), reconciles committed scheduled-action tickets, and
 * waits for work on a {@link WakeSignal} or the poll interval. It owns delivery only: run truth is
 * read from the queue's commit store. Time comes from the injected clock and timers; work runs on
 * the injected executor.
 */
public final class DurableDispatcher implements AutoCloseable {

  /** The reason a stopped expired scheduled action carries (§11, §15 D-08). */
  public static final String EXPIRED = "scheduled action expired";

  private static final Logger LOG = LoggerFactory.getLogger(DurableDispatcher.class);

  /** How one claimed attempt ended. */
  public enum Result {
    /** Settled awaiting (or pending, when woken while running). */
    AWAITING,
    /** Settled done: the record is gone. */
    DONE,
    /** The settle found the claim stale: another owner holds the Run. */
    FENCED,
    /** Not settled: the lease will expire and a recovery claim retries the Run. */
    LEFT
  }

  /**
   * One claimed attempt's outcome.
   *
   * @param claim the claim
   * @param result how it ended
   * @param failure why it was left, for {@link Result#LEFT}
   */
  public record Attempt(DispatchClaim claim, Result result, Optional<Throwable> failure) {
    /** Rejects missing parts. */
    public Attempt {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(failure, "failure");
    }
  }

  /** What the dispatcher did with a claim, as {@link ActivityListener}s hear it. */
  public enum Activity {
    /** A claim was taken: fresh, or a recovery claim ({@link DispatchClaim#recovery()}). */
    CLAIMED,
    /** A held claim's lease was renewed. */
    RENEWED,
    /** A renewal found the claim superseded: another owner holds the Run now. */
    RENEWAL_SUPERSEDED,
    /** A renewal failed (the queue threw); the next interval tries again. */
    RENEWAL_FAILED,
    /** A Run whose retry budget was spent was ended {@code indeterminate} (§12.5.5). */
    ENDED_INDETERMINATE
  }

  /** Told of each {@link Activity} (metrics). */
  @FunctionalInterface
  public interface ActivityListener {

    /**
     * One activity. Runs on the thread that did it (a worker, or the timer thread for renewals):
     * keep it short; a throwing listener is logged and ignored.
     *
     * @param activity what happened
     * @param claim the claim it happened to
     */
    void on(Activity activity, DispatchClaim claim);
  }

  private final DispatchTarget runtime;
  private final DispatchQueue queue;
  private final RunContext base;
  private final InstantSource clock;
  private final Timers timers;
  private final Executor executor;
  private final DispatcherOptions options;
  private final WakeSignal wake;
  private final String owner;

  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean wakeArmed = new AtomicBoolean();
  private final Set<Held> held = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final List<ActivityListener> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean started;
  private volatile boolean closed;
  private volatile @Nullable Cancellable poll;
  private volatile @Nullable Cancellable reconcileTimer;

  private DurableDispatcher(Builder b) {
    this.runtime = b.runtime;
    this.queue = b.queue;
    this.base = b.context == null ? RunContext.of(b.queue.store()) : b.context;
    if (base.store() != queue.store()) {
      throw new IllegalArgumentException(
          "the dispatcher's context must commit through the queue's store: the outbox and fence live there");
    }
    this.clock = Objects.requireNonNull(b.clock, "clock");
    this.timers = Objects.requireNonNull(b.timers, "timers");
    this.executor = Objects.requireNonNull(b.executor, "executor");
    this.options = b.options;
    this.wake = b.wake;
    this.owner = b.owner == null ? defaultOwner() : b.owner;
  }

  /**
   * Starts a builder.
   *
   * @param runtime the engine that drives Runs; it commits through the queue's {@link
   *     DispatchQueue#store()}
   * @param queue the dispatch queue
   * @return the builder
   */
  public static Builder builder(DispatchTarget runtime, DispatchQueue queue) {
    return new Builder(runtime, queue);
  }

  /** Configures a {@link DurableDispatcher}. */
  public static final class Builder {
    private final DispatchTarget runtime;
    private final DispatchQueue queue;
    private @Nullable RunContext context;
    private @Nullable InstantSource clock;
    private @Nullable Timers timers;
    private @Nullable Executor executor;
    private DispatcherOptions options = DispatcherOptions.defaults();
    private WakeSignal wake = WakeSignal.inProcess();
    private @Nullable String owner;

    private Builder(DispatchTarget runtime, DispatchQueue queue) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
      this.queue = Objects.requireNonNull(queue, "queue");
    }

    /**
     * The context attempts start from (policy, deadline policy); its store must be the queue's.
     * Default: {@code RunContext.of(queue.store())}.
     *
     * @param c the context
     * @return this builder
     */
    public Builder context(RunContext c) {
      this.context = Objects.requireNonNull(c, "context");
      return this;
    }

    /**
     * The host's wall clock; required.
     *
     * @param c the clock
     * @return this builder
     */
    public Builder clock(InstantSource c) {
      this.clock = c;
      return this;
    }

    /**
     * The host's timer service, for polls, renewals and reconciliation; required.
     *
     * @param t the timers
     * @return this builder
     */
    public Builder timers(Timers t) {
      this.timers = t;
      return this;
    }

    /**
     * Where claimed work runs after a wake or a timer; required.
     *
     * @param e the executor
     * @return this builder
     */
    public Builder executor(Executor e) {
      this.executor = e;
      return this;
    }

    /**
     * The options; default {@link DispatcherOptions#defaults()}.
     *
     * @param o the options
     * @return this builder
     */
    public Builder options(DispatcherOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /**
     * The wake signal; default {@link WakeSignal#inProcess()}.
     *
     * @param w the signal
     * @return this builder
     */
    public Builder wake(WakeSignal w) {
      this.wake = Objects.requireNonNull(w, "wake");
      return this;
    }

    /**
     * The owner id; default host name, pid and a random UUID, unique per instance.
     *
     * @param id the owner id
     * @return this builder
     */
    public Builder owner(String id) {
      this.owner = Objects.requireNonNull(id, "owner");
      return this;
    }

    /**
     * Builds the dispatcher.
     *
     * @return the dispatcher
     * @throws NullPointerException when the clock, timers or executor is missing
     * @throws IllegalArgumentException when the context commits elsewhere than the queue's store
     */
    public DurableDispatcher build() {
      return new DurableDispatcher(this);
    }
  }

  private static String defaultOwner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return host + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID();
  }

  /**
   * This instance's owner id.
   *
   * @return the id its claims carry
   */
  public String owner() {
    return owner;
  }

  // ---------------------------------------------------------------- ingress

  /**
   * Submits a fresh Run and wakes the dispatcher.
   *
   * @param activation the input
   * @return false when the Run already has a dispatch record (nothing changed)
   * @throws UnsupportedOperationException when the target starts no Run from an activation
   *     ({@link DispatchTarget#executesActivations()}); nothing is stored, so no claim is left for
   *     a retry budget to drop
   */
  public boolean submit(RunActivation activation) {
    if (!runtime.executesActivations()) {
      throw new UnsupportedOperationException("run " + activation.runId()
          + ": this dispatcher's target starts no Run from an activation; " + runtime.howRunsStart());
    }
    boolean ok = queue.submit(activation, clock.millis());
    wake.publish();
    return ok;
  }

  /**
   * Stores an answer for an awaiting Run in the resume inbox and wakes the dispatcher.
   *
   * @param command the answer
   * @return its inbox id
   */
  public long submitResume(ResumeCommand command) {
    long id = queue.submitResume(command, clock.millis());
    wake.publish();
    return id;
  }

  /**
   * Records a durable cancel intent and wakes the dispatcher; a Run this instance is driving is
   * also cancelled cooperatively at its next renewal.
   *
   * @param runId the Run
   * @param threadId its thread
   */
  public void cancel(String runId, String threadId) {
    queue.cancel(runId, threadId, clock.millis());
    wake.publish();
  }

  /**
   * Creates a pending record for every committed scheduled-action ticket lacking one (§12.5.1).
   *
   * @return how many records were created
   */
  public int reconcile() {
    long now = clock.millis();
    int created = 0;
    for (ResumeTicket t : queue.store().view().activeTickets(AwaitReason.SCHEDULED_ACTION)) {
      if (queue.reconcile(t.runId(), t.threadId(), now)) {
        created++;
      }
    }
    return created;
  }

  // ---------------------------------------------------------------- the loop

  /**
   * Reconciles, then claims and drives work on the executor until closed: up to {@code workers}
   * attempts at once, waiting for a wake hint or the poll interval when nothing is claimable, and
   * reconciling again every {@code reconcileIntervalMs}. Calling it again does nothing.
   */
  public void start() {
    synchronized (this) {
      if (started || closed) {
        return;
      }
      started = true;
    }
    reconcile();
    armReconcile();
    executor.execute(this::pump);
  }

  private void armReconcile() {
    if (closed) {
      return;
    }
    reconcileTimer = timers.schedule(Duration.ofMillis(options.reconcileIntervalMs()), () -> executor.execute(() -> {
      if (closed) {
        return;
      }
      try {
        if (reconcile() > 0) {
          wake.publish();
        }
      } catch (RuntimeException e) {
        LOG.warn("dispatch reconciliation failed; retrying at the next interval", e);
      }
      armReconcile();
    }));
  }

  private void pump() {
    while (!closed) {
      if (inFlight.incrementAndGet() > options.workers()) {
        // every worker is busy: the next completion pumps again
        inFlight.decrementAndGet();
        return;
      }
      CompletableFuture<Optional<Attempt>> f;
      try {
        f = tick().toCompletableFuture();
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      if (f.isDone() && !f.isCompletedExceptionally() && f.join().isEmpty()) {
        inFlight.decrementAndGet();
        armWait();
        return;
      }
      CompletableFuture<Optional<Attempt>> unused = f.whenComplete((a, err) -> {
        inFlight.decrementAndGet();
        if (err != null) {
          LOG.warn("a dispatch claim failed; its lease will expire and a recovery claim retries", err);
        }
        if (!closed) {
          executor.execute(this::pump);
        }
      });
      if (f.isCompletedExceptionally()) {
        // a queue failure: back off to the poll rather than spin
        return;
      }
    }
  }

  private void armWait() {
    if (closed) {
      return;
    }
    Cancellable previous = poll;
    if (previous != null) {
      previous.cancel();
    }
    poll = timers.schedule(Duration.ofMillis(options.pollIntervalMs()), () -> {
      if (!closed) {
        executor.execute(this::pump);
      }
    });
    if (wakeArmed.compareAndSet(false, true)) {
      wake.next().thenRun(() -> {
        wakeArmed.set(false);
        if (!closed) {
          executor.execute(this::pump);
        }
      });
    }
  }

  /**
   * Listens to what the dispatcher does with its claims.
   *
   * @param listener told of each activity from now on
   * @return a handle that removes it
   */
  public Registration onActivity(ActivityListener listener) {
    ActivityListener l = Objects.requireNonNull(listener, "listener");
    listeners.add(l);
    return () -> listeners.remove(l);
  }

  private void tell(Activity activity, DispatchClaim claim) {
    for (ActivityListener l : listeners) {
      try {
        l.on(activity, claim);
      } catch (RuntimeException e) {
        LOG.warn("a dispatcher activity listener failed on {} of run {}", activity, claim.runId(), e);
      }
    }
  }

  /** Stops claiming and renewing; attempts in flight finish, their leases then lapse. */
  @Override
  public void close() {
    closed = true;
    Cancellable p = poll;
    if (p != null) {
      p.cancel();
    }
    Cancellable r = reconcileTimer;
    if (r != null) {
      r.cancel();
    }
    held.forEach(Held::release);
  }

  // ---------------------------------------------------------------- one claim

  /**
   * One claim and its drive, on the calling thread until the drive waits: first a Run whose retry
   * budget is spent (ended indeterminate), else an ordinary claim.
   *
   * @return a stage with the attempt, or empty when nothing was claimable
   */
  public CompletionStage<Optional<Attempt>> tick() {
    long now = clock.millis();
    Optional<DispatchClaim> exhausted =
        queue.claimRetryExhausted(owner, options.leaseMs(), options.maxRecoveryAttempts(), now);
    if (exhausted.isPresent()) {
      return run(exhausted.get(), this::exhaust).thenApply(Optional::of);
    }
    Optional<DispatchClaim> claim = queue.claim(owner, options.leaseMs(), now, options.maxRecoveryAttempts());
    if (claim.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return run(claim.get(), this::decide).thenApply(Optional::of);
  }

  /** A claim this instance holds: its renewal, its cancellation and the commands it consumed. */
  private final class Held {
    final DispatchClaim claim;
    final AbortController abort = new AbortController();
    final Set<Long> consumed = new LinkedHashSet<>();
    volatile boolean released;
    volatile @Nullable Cancellable renewal;

    Held(DispatchClaim claim) {
      this.claim = claim;
    }

    RunContext ctx() {
      return base.withClaim(new ClaimGuard(claim.fence(), this::owns))
          .withCancellation(abort.signal()).at(clock.millis());
    }

    // §12.5.3: epoch current and the lease not lapsed on this dispatcher's clock
    boolean owns() {
      long now = clock.millis();
      return queue.record(claim.runId())
          .filter(r -> r.status() == DispatchStatus.RUNNING && r.epoch() == claim.epoch()
              && r.owner().equals(Optional.of(claim.owner())))
          .map(r -> r.leaseExpiresMs().isPresent() && now <= r.leaseExpiresMs().getAsLong())
          .orElse(false);
    }

    void armRenewal() {
      if (options.renewIntervalMs() == 0 || released) {
        return;
      }
      renewal = timers.schedule(Duration.ofMillis(options.renewIntervalMs()), () -> {
        if (released) {
          return;
        }
        try {
          if (!queue.renew(claim, options.leaseMs(), clock.millis())) {
            tell(Activity.RENEWAL_SUPERSEDED, claim);
            return; // superseded: the ownership check and the fence stop this attempt
          }
          tell(Activity.RENEWED, claim);
          if (queue.record(claim.runId()).map(DispatchRecord::cancelRequested).orElse(false)) {
            // a Run driven here is cancelled cooperatively, ending cancelled at its next boundary
            abort.abort();
          }
        } catch (RuntimeException e) {
          LOG.warn("renewing the dispatch claim of run {} failed", claim.runId(), e);
          tell(Activity.RENEWAL_FAILED, claim);
        }
        armRenewal();
      });
    }

    void release() {
      released = true;
      Cancellable r = renewal;
      if (r != null) {
        r.cancel();
      }
      held.remove(this);
    }
  }

  private interface Step {
    CompletionStage<Attempt> apply(Held h);
  }

  private CompletionStage<Attempt> run(DispatchClaim claim, Step step) {
    Held h = new Held(claim);
    held.add(h);
    tell(Activity.CLAIMED, claim);
    h.armRenewal();
    CompletionStage<Attempt> s;
    try {
      // the engine may know only the threads it has open: it opens this one before truth is read
      s = runtime.openThread(claim.threadId()).thenCompose(v -> step.apply(h));
    } catch (RuntimeException e) {
      s = CompletableFuture.failedFuture(e);
    }
    return s.handle((a, err) -> {
      h.release();
      if (err == null) {
        return CompletableFuture.completedFuture(a);
      }
      Throwable cause = unwrap(err);
      // a lost race with an end committed elsewhere is an ended Run: settle done
      if (queue.store().view().runState(claim.runId()).map(RunState::isTerminal).orElse(false)) {
        return settle(h, DispatchQueue.Settlement.DONE);
      }
      return CompletableFuture.completedFuture(new Attempt(claim, Result.LEFT, Optional.of(cause)));
    }).thenCompose(x -> x);
  }

  private CompletionStage<Attempt> settle(Held h, DispatchQueue.Settlement s) {
    DispatchQueue.SettleResult r = queue.settle(h.claim, s, List.copyOf(h.consumed));
    Result result = r == DispatchQueue.SettleResult.FENCED ? Result.FENCED
        : s == DispatchQueue.Settlement.DONE ? Result.DONE : Result.AWAITING;
    return CompletableFuture.completedFuture(new Attempt(h.claim, result, Optional.empty()));
  }

  // §12.5.5: the budget is spent; end the Run indeterminate through the finish boundary
  private CompletionStage<Attempt> exhaust(Held h) {
    DispatchClaim c = h.claim;
    Optional<RunRecord> rec = queue.store().view().run(c.runId());
    if (rec.isEmpty() || rec.get().state().isTerminal()) {
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    return runtime.endIndeterminate(c.runId(), c.threadId(),
            "retry budget exhausted after " + c.attemptCount() + " recovery attempts", h.ctx())
        .thenCompose(st -> {
          tell(Activity.ENDED_INDETERMINATE, c);
          return settle(h, DispatchQueue.Settlement.DONE);
        });
  }

  // §12.5.4, steps 1-5
  private CompletionStage<Attempt> decide(Held h) {
    DispatchClaim c = h.claim;
    Optional<RunRecord> rec = queue.store().view().run(c.runId());
    if (c.cancelRequested()) {
      if (rec.isPresent() && !rec.get().state().isTerminal()) {
        return runtime.cancelRun(c.runId(), c.threadId(), h.ctx())
            .thenCompose(st -> settle(h, DispatchQueue.Settlement.DONE));
      }
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    if (rec.isEmpty()) {
      if (c.activation().isPresent()) {
        return runtime.execute(c.activation().get(), h.ctx()).thenCompose(st -> after(h, st));
      }
      // nothing committed and nothing to start: an answer or a reconcile for an unknown Run
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    if (rec.get().state().isTerminal()) {
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    if (rec.get().ticket().isPresent()) {
      return onTicket(h, rec.get());
    }
    if (c.recovery()) {
      return runtime.recover(c.runId(), h.ctx()).thenCompose(st -> after(h, st));
    }
    return release(h);
  }

  // a fresh claim on a Run running elsewhere: keep only what the inbox still needs
  private CompletionStage<Attempt> release(Held h) {
    return settle(h, pendingResumes(h).isEmpty() ? DispatchQueue.Settlement.DONE : DispatchQueue.Settlement.AWAITING);
  }

  private List<PendingResume> pendingResumes(Held h) {
    List<PendingResume> out = new ArrayList<>();
    for (PendingResume p : queue.resumes(h.claim.runId())) {
      if (!h.consumed.contains(p.id())) {
        out.add(p);
      }
    }
    return out;
  }

  private CompletionStage<Attempt> onTicket(Held h, RunRecord rec) {
    ResumeTicket ticket = rec.ticket().orElseThrow();
    if (ticket.reason() == AwaitReason.SCHEDULED_ACTION) {
      long now = clock.millis();
      if (ticket.deadlineMs().isPresent() && now > ticket.deadlineMs().getAsLong()) {
        return runtime.stopRun(h.claim.runId(), h.claim.threadId(), EXPIRED, h.ctx())
            .thenCompose(st -> settle(h, DispatchQueue.Settlement.DONE));
      }
      return runtime.performScheduledAction(h.claim.runId(), h.ctx(), now).thenCompose(o -> {
        if (o instanceof ResumeOutcome.Advanced a) {
          return after(h, a.state());
        }
        return afterRejection(h, rec.headSequence(), (ResumeOutcome.Rejected) o);
      });
    }
    for (PendingResume p : pendingResumes(h)) {
      h.consumed.add(p.id());
      if (!p.command().correlationId().equals(ticket.correlationId())) {
        continue; // stale: an answer to an earlier wait (CRASH-02)
      }
      return runtime.resume(p.command(), h.ctx()).thenCompose(o -> {
        if (o instanceof ResumeOutcome.Advanced a) {
          return after(h, a.state());
        }
        // a rejected answer is consumed; the next one, if any, gets its turn
        return fromTruth(h);
      });
    }
    return settle(h, DispatchQueue.Settlement.AWAITING);
  }

  private CompletionStage<Attempt> afterRejection(Held h, long headBefore, ResumeOutcome.Rejected r) {
    Optional<RunRecord> now = queue.store().view().run(h.claim.runId());
    if (now.isPresent() && now.get().headSequence() == headBefore) {
      // nothing moved (e.g. the snapshot is not registered here): leave it for a later attempt
      return CompletableFuture.failedFuture(new GateRuntimeException.Execution(
          "perform of run " + h.claim.runId() + " was rejected: " + r.message(), null));
    }
    return fromTruth(h);
  }

  // DUR-04: a drive returning running is an error and is never settled
  private CompletionStage<Attempt> after(Held h, RunState state) {
    if (state instanceof RunState.Running) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "the drive of run " + h.claim.runId() + " returned a running state; not settled"));
    }
    return fromTruth(h);
  }

  // re-reads committed truth after a drive: a chained scheduled action is performed again in the
  // same drive (DUR-10), an answer waiting for the new ticket is delivered
  private CompletionStage<Attempt> fromTruth(Held h) {
    Optional<RunRecord> rec = queue.store().view().run(h.claim.runId());
    if (rec.isEmpty()) {
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    if (rec.get().state().isTerminal()) {
      return settle(h, DispatchQueue.Settlement.DONE);
    }
    if (rec.get().ticket().isPresent()) {
      return onTicket(h, rec.get());
    }
    return release(h);
  }

  /** The failure a stage's wrappers hide, reported as the attempt's cause. */
  private static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}
