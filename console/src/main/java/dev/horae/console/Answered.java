package dev.horae.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.RunState;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.Json;
import dev.horae.store.CommitLogLockedException;
import dev.horae.store.SessionLeaseException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An answer to a parked call that landed, and the one path every answer takes ({@link #give}):
 * {@code horae approve}/{@code deny}, the console of {@code horae console} and the console the
 * Spring Boot starter mounts. It answers through {@link HoraeRuntime#approve}/{@link
 * HoraeRuntime#deny}, so the gate's ticket rules apply, waits until the agent settles and flushes
 * (docs/operations.md, "Answering a parked call").
 *
 * @param call the call answered
 * @param approved whether it was approved
 * @param reason the denial's reason, empty for an approval
 * @param state the run's state after the continued turn settled
 * @param durable whether the store confirmed the answer durable
 */
public record Answered(AwaitingCall call, boolean approved, String reason, RunState state, boolean durable) {

  /**
   * Answers {@code call} in {@code runtime}: opens (or finds) the agent of its session, approves or
   * denies, waits until the agent is idle or parked again, then flushes.
   *
   * @param runtime the runtime that runs the continued turn: the application's own, or one the
   *     command line opened over the store with the application's setup
   * @param call the parked call, as the log shows it
   * @param approve true to approve, false to deny
   * @param reason the denial's reason (told to the model); ignored for an approval
   * @param timeoutSeconds how long the continued turn and the flush may take
   * @return the answer; {@link #durable()} false when the flush could not be confirmed
   * @throws ConsoleFailure {@code HELD} when another process holds the session, {@code REJECTED}
   *     when the gate refused the answer (nothing was written then), {@code UNCERTAIN} when the
   *     turn did not settle in time
   */
  public static Answered give(HoraeRuntime runtime, AwaitingCall call, boolean approve, String reason,
      long timeoutSeconds) {
    String runId = call.runId();
    String sessionId = call.sessionId();
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
      throw new ConsoleFailure(ConsoleFailure.Kind.UNCERTAIN, "interrupted while the turn of " + runId
          + " ran; see horae tail " + sessionId, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new ConsoleFailure(ConsoleFailure.Kind.UNCERTAIN, "the turn of " + runId + " did not settle within "
          + timeoutSeconds + " s (" + e + "); see horae tail " + sessionId, e);
    }
    if (outcome instanceof ResumeOutcome.Rejected r) {
      throw new ConsoleFailure(ConsoleFailure.Kind.REJECTED, "the answer to " + runId + " was refused: " + r.code()
          + ": " + r.message()
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
      // a flush that failed or did not finish leaves the answer uncertain, never confirmed
      durable = false;
    }
    return new Answered(call, approve, approve ? "" : reason, ((ResumeOutcome.Advanced) outcome).state(), durable);
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
  private static Optional<ConsoleFailure> held(String sessionId, Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof CommitLogLockedException
          || (c instanceof SessionLeaseException l && l.code() == SessionLeaseException.Code.LEASE_HELD)) {
        return Optional.of(new ConsoleFailure(ConsoleFailure.Kind.HELD, "session " + sessionId
            + " is held by another process (" + c.getMessage() + "); answer from that process, or stop it first. "
            + "Nothing was written", e));
      }
    }
    return Optional.empty();
  }

  /**
   * What {@code horae --json approve} prints.
   *
   * @return the JSON object
   */
  public ObjectNode json() {
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

  /**
   * What {@code horae approve} prints.
   *
   * @return one line
   */
  public String text() {
    if (approved) {
      return "approved " + call.runId() + ": " + call.toolId() + " " + EcmaJson.write(call.arguments())
          + " ran; the run is " + stateText(state);
    }
    return "denied " + call.runId() + ": " + call.toolId() + " " + EcmaJson.write(call.arguments())
        + " did not run (" + reason + "); the run is " + stateText(state);
  }

  /**
   * The note for an answer whose durability was not confirmed.
   *
   * @return one line
   */
  public String uncertainty() {
    return "the answer to " + call.runId() + " could not be confirmed durable; see horae tail " + call.sessionId();
  }

  private static String stateText(RunState state) {
    if (state instanceof RunState.Ended ended) {
      return "ended (" + ended.cause().wireName() + ")";
    }
    return state instanceof RunState.Awaiting ? "awaiting (parked on another call)" : "running";
  }
}
