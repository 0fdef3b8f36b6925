package dev.horae.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Json;
import dev.horae.store.CommitLogLockedException;
import dev.horae.store.SessionLeaseException;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a parked call, shared by {@code horae approve}/{@code deny} and the web console's
 * Approve/Deny buttons: find the call in the stored log, refuse without an {@link OperatorSetup},
 * open a runtime over the store under its own exclusion, answer through {@link
 * HoraeRuntime#approve}/{@link HoraeRuntime#deny} (so the gate's ticket rules apply), wait until
 * the agent settles and flush (docs/operations.md, "Answering a parked call").
 */
final class Answer {

  /**
   * An answer that landed.
   *
   * @param call the call answered
   * @param approved whether it was approved
   * @param reason the denial's reason, empty for an approval
   * @param state the run's state after the continued turn settled
   * @param durable whether the store confirmed the answer durable
   */
  record Given(AwaitingCall call, boolean approved, String reason, RunState state, boolean durable) {

    /** What {@code horae --json approve} prints. */
    ObjectNode json() {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("runId", call.runId()).put("session", call.sessionId()).put("decision", approved ? "approved" : "denied");
      o.put("tool", call.toolId());
      o.set("arguments", call.arguments());
      if (!approved) {
        o.put("reason", reason);
      }
      o.put("runState", state instanceof RunState.Ended ? "ended" : state instanceof RunState.Awaiting ? "awaiting" : "running");
      if (state instanceof RunState.Ended e) {
        o.put("endCause", e.cause().wireName());
      }
      return o;
    }

    /** What {@code horae approve} prints. */
    String text() {
      if (approved) {
        return "approved " + call.runId() + ": " + call.toolId() + " " + EcmaJson.write(call.arguments())
            + " ran; the run is " + stateText(state);
      }
      return "denied " + call.runId() + ": " + call.toolId() + " " + EcmaJson.write(call.arguments())
          + " did not run (" + reason + "); the run is " + stateText(state);
    }

    /** The note for an answer whose durability was not confirmed. */
    String uncertainty() {
      return "the answer to " + call.runId() + " could not be confirmed durable; see horae tail " + call.sessionId();
    }
  }

  private Answer() {}

  /**
   * Answers the parked call of {@code runId}.
   *
   * @param setup the application's setup, loaded only once the call is known to be awaiting; null
   *     when none was given (refused {@link ExitCode#NEEDS_SETUP})
   * @throws CliException with the exit status of a refusal; nothing was written then
   */
  static Given give(StoreAccess store, String runId, boolean approve, String reason,
      @Nullable Supplier<OperatorSetup> setup, long timeoutSeconds, InstantSource clock, WarningSink warnings) {
    int cut = runId.lastIndexOf("/turn-");
    if (cut <= 0) {
      throw new CliException(ExitCode.NOT_FOUND, "run " + runId + " is not awaiting (a run id is <session>/turn-<n>)");
    }
    String sessionId = runId.substring(0, cut);
    LogView view = new LogView(store.read(sessionId)
        .orElseThrow(() -> new CliException(ExitCode.NOT_FOUND, "run " + runId + " is not awaiting: no session " + sessionId)));
    AwaitingCall call = view.awaiting().stream().filter(a -> a.runId().equals(runId)).findFirst()
        .orElseThrow(() -> new CliException(ExitCode.NOT_FOUND, "run " + runId + " is not awaiting"));
    if (setup == null) {
      throw new CliException(ExitCode.NEEDS_SETUP, (approve ? "approve" : "deny") + " continues the turn of " + runId
          + ": it runs " + (approve ? "the call " + call.toolId() + " and " : "") + "the model's next steps, so it needs the "
          + "application's tools and model; give --setup CLASS (an OperatorSetup on the class path), or answer from the "
          + "application with HoraeRuntime." + (approve ? "approve" : "deny") + ". Nothing was written");
    }
    try (HoraeRuntime runtime = store.writer(setup.get(), clock, warnings)) {
      RuntimeAgent agent;
      try {
        agent = runtime.openAgent(sessionId);
      } catch (RuntimeException e) {
        throw held(sessionId, e).orElseThrow(() -> e);
      }
      ResumeOutcome outcome;
      try {
        outcome = (approve ? runtime.approve(runId) : runtime.deny(runId, reason))
            .toCompletableFuture().get(timeoutSeconds, TimeUnit.SECONDS);
        if (outcome instanceof ResumeOutcome.Advanced) {
          settle(agent, timeoutSeconds);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(ExitCode.UNCERTAIN, "interrupted while the turn of " + runId + " ran; see horae tail " + sessionId);
      } catch (ExecutionException | TimeoutException e) {
        throw new CliException(ExitCode.UNCERTAIN, "the turn of " + runId + " did not settle within " + timeoutSeconds
            + " s (" + e + "); see horae tail " + sessionId);
      }
      if (outcome instanceof ResumeOutcome.Rejected r) {
        throw new CliException(ExitCode.REJECTED, "the answer to " + runId + " was refused: " + r.code() + ": " + r.message()
            + (r.code().equals("fingerprintMismatch") ? " (the setup's tools differ from the application's)" : "")
            + "; nothing was written");
      }
      boolean durable;
      try {
        durable = Boolean.TRUE.equals(runtime.sessions().flush(agent.session()).toCompletableFuture()
            .get(timeoutSeconds, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        durable = false;
      } catch (ExecutionException | TimeoutException e) {
        durable = false;
      }
      return new Given(call, approve, approve ? "" : reason, ((ResumeOutcome.Advanced) outcome).state(), durable);
    }
  }

  /**
   * Waits until the agent is idle or parked again: the continued turn may hand it more work (a
   * reminder that came due meanwhile), and a parked agent is never idle until someone answers.
   */
  private static void settle(RuntimeAgent agent, long timeoutSeconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    long rounds = TimeUnit.SECONDS.toMillis(timeoutSeconds) / 100;
    for (long i = 0; i < rounds; i++) {
      if (agent.parked()) {
        return;
      }
      try {
        agent.whenIdle().toCompletableFuture().get(100, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException notYet) {
        // look again: parked, or still running
      }
    }
    throw new TimeoutException("the agent of " + agent.id() + " neither became idle nor parked");
  }

  /** The refusal of a session another process holds, if that is what {@code e} is. */
  private static Optional<CliException> held(String sessionId, Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof CommitLogLockedException || (c instanceof SessionLeaseException l && l.code() == SessionLeaseException.Code.LEASE_HELD)) {
        return Optional.of(new CliException(ExitCode.HELD, "session " + sessionId + " is held by another process ("
            + c.getMessage() + "); answer from that process, or stop it first. Nothing was written", e));
      }
    }
    return Optional.empty();
  }

  /** Loads the setup class {@code name} names. */
  static OperatorSetup load(String name) {
    try {
      Class<?> type = Class.forName(name, true, Thread.currentThread().getContextClassLoader());
      if (!OperatorSetup.class.isAssignableFrom(type)) {
        throw new CliException(ExitCode.USAGE, name + " is not an " + OperatorSetup.class.getName());
      }
      return (OperatorSetup) type.getConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new CliException(ExitCode.USAGE, "cannot load the setup " + name + ": " + e, e);
    }
  }

  private static String stateText(RunState state) {
    if (state instanceof RunState.Ended ended) {
      return "ended (" + ended.cause().wireName() + ")";
    }
    return state instanceof RunState.Awaiting ? "awaiting (parked on another call)" : "running";
  }
}
