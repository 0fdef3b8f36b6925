package dev.horae.gate.runtime;

import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import dev.horae.spi.session.Session;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The in-process caller of {@link DispatchTarget#performScheduledAction}: performs committed
 * scheduled-action tickets, and while a Run parks on another scheduled action performs again in
 * the same pass, so chained scheduled actions never settle as awaiting. On start it rediscovers
 * every awaiting scheduled-action ticket from the session logs it is given. It is not a durable
 * scheduler: a scheduled action is performed as soon as it is picked up.
 */
public final class ScheduledActionDispatcher {

  private final DispatchTarget runtime;
  private final RunContext context;
  private final CommitStore store;
  private final InstantSource clock;

  private ScheduledActionDispatcher(DispatchTarget runtime, RunContext context, InstantSource clock) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.context = Objects.requireNonNull(context, "context");
    this.store = context.store().orElseThrow(() ->
        new IllegalArgumentException("a dispatcher needs a commit store: uncommitted candidates are not wakeable"));
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Creates a dispatcher.
   *
   * @param runtime the engine that performs (an {@link AgentRuntime}, say)
   * @param context the context with the commit store the runtime writes
   * @param clock the host's wall clock, read for each perform's {@code nowMs}
   * @return the dispatcher
   * @throws IllegalArgumentException when the context has no commit store
   */
  public static ScheduledActionDispatcher create(DispatchTarget runtime, RunContext context, InstantSource clock) {
    return new ScheduledActionDispatcher(runtime, context, clock);
  }

  /**
   * Rediscovers awaiting scheduled actions from the given session logs (when the store is a
   * {@link SessionCommitStore}) and performs every one of them.
   *
   * @param sessions the sessions to read
   * @return a stage with the pass's report
   */
  public CompletionStage<DispatchReport> start(Collection<Session> sessions) {
    if (store instanceof SessionCommitStore s) {
      sessions.forEach(s::track);
    }
    return drain();
  }

  /**
   * Performs every active scheduled-action ticket the committed view knows, one Run after the
   * other.
   *
   * @return a stage with the pass's report; it never fails because one Run failed
   */
  public CompletionStage<DispatchReport> drain() {
    List<String> runs = new ArrayList<>();
    for (ResumeTicket t : store.view().activeTickets(AwaitReason.SCHEDULED_ACTION)) {
      runs.add(t.runId());
    }
    Map<String, ResumeOutcome> out = new LinkedHashMap<>();
    Map<String, Throwable> failed = new LinkedHashMap<>();
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (String runId : runs) {
      chain = chain.thenCompose(v -> {
        CompletionStage<ResumeOutcome> one;
        try {
          one = perform(runId);
        } catch (RuntimeException e) {
          one = CompletableFuture.failedFuture(e);
        }
        return one.handle((o, err) -> {
          if (err != null) {
            failed.put(runId, RunDriver.unwrap(err));
          } else {
            out.put(runId, o);
          }
          return null;
        });
      });
    }
    return chain.thenApply(v -> new DispatchReport(out, failed));
  }

  /**
   * Performs a Run's scheduled action, and again while it parks on another one.
   *
   * @param runId the Run
   * @return a stage with the last outcome
   */
  public CompletionStage<ResumeOutcome> perform(String runId) {
    long now = clock.millis();
    // the same reading decides this perform's expiry and the deadline of a chained ticket
    return runtime.performScheduledAction(runId, context.at(now), now).thenCompose(o -> {
      boolean chained = o instanceof ResumeOutcome.Advanced a
          && a.state() instanceof RunState.Awaiting
          && store.view().resumeTicket(runId).map(t -> t.reason() == AwaitReason.SCHEDULED_ACTION).orElse(false);
      return chained ? perform(runId) : CompletableFuture.completedFuture(o);
    });
  }
}
