package dev.horae.testkit.agent;

import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.RuntimeAgents;
import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * The runtime's {@link RuntimeAgent} with the controls a test needs: scripted maintenance and idle
 * faults, held idle waits, a manual busy phase, counters, and a record of everything queued on or
 * withdrawn from the inbox. The phase rules themselves are the runtime's, unchanged. Thread-safe.
 */
public final class TestAgent extends RuntimeAgent {

  private final List<UserMessage> followups = new ArrayList<>();
  private final List<UserMessage> injections = new ArrayList<>();
  private final List<String> withdrawn = new ArrayList<>();
  private boolean holdIdle;
  private @Nullable Throwable failNextIdle;
  private @Nullable Throwable failNextMaintenance;
  private @Nullable ExternalTurn manualBusy;
  private int maintenanceCalls;
  private int maintenanceRejections;
  private int whenIdleCalls;

  /**
   * Creates a test agent; the host's registry calls this through its agent factory.
   *
   * @param id the agent id
   * @param parentId the owner, for a child
   * @param session the live session
   * @param scope the agent scope
   * @param registry the registry
   */
  public TestAgent(String id, Optional<String> parentId, Session session, RuntimeScope scope, RuntimeAgents registry) {
    super(id, parentId, session, scope, registry);
  }

  @Override
  public synchronized TestAgent useModel(ModelPort port) {
    super.useModel(port);
    return this;
  }

  // ---- maintenance -------------------------------------------------------------------------

  /**
   * Makes the next {@code runMaintenance} call return a stage failed with {@code failure}, without
   * claiming the agent or running the task (the "maintenance stage fails" fault).
   *
   * @param failure the failure
   */
  public synchronized void failNextMaintenance(Throwable failure) {
    failNextMaintenance = failure;
  }

  /**
   * How many times {@code runMaintenance} was called (including rejected calls).
   *
   * @return the count
   */
  public synchronized int maintenanceCalls() {
    return maintenanceCalls;
  }

  /**
   * How many {@code runMaintenance} calls threw because the agent had active work.
   *
   * @return the count
   */
  public synchronized int maintenanceRejections() {
    return maintenanceRejections;
  }

  @Override
  protected @Nullable Throwable maintenanceFault() {
    Throwable f = failNextMaintenance;
    failNextMaintenance = null;
    return f;
  }

  @Override
  protected void onMaintenanceCall() {
    maintenanceCalls++;
  }

  @Override
  protected void onMaintenanceRejected() {
    maintenanceRejections++;
  }

  // ---- manual phase control ------------------------------------------------------------------

  /**
   * Makes the agent busy as if a turn driver ran (status {@code running}), without a model.
   *
   * @throws IllegalStateException when the agent is not idle
   */
  public void setBusy() {
    ExternalTurn turn = beginExternalTurn();
    synchronized (this) {
      manualBusy = turn;
    }
  }

  /**
   * Ends a {@link #setBusy()} phase; latched input then starts a driver (with a model).
   *
   * @throws IllegalStateException when the agent was not made busy with {@link #setBusy()}
   */
  public void setIdle() {
    ExternalTurn turn;
    synchronized (this) {
      turn = manualBusy;
      manualBusy = null;
    }
    if (turn == null) {
      throw new IllegalStateException("agent \"" + id() + "\" was not made busy by the test");
    }
    turn.close();
  }

  // ---- idle wait -----------------------------------------------------------------------------

  @Override
  public CompletionStage<Void> whenIdle() {
    synchronized (this) {
      whenIdleCalls++;
    }
    return super.whenIdle();
  }

  /** Holds every idle wait until {@link #releaseIdle()}, even when the agent is idle. */
  public synchronized void holdIdle() {
    holdIdle = true;
  }

  /** Releases held idle waits (they complete if the agent is idle). */
  public void releaseIdle() {
    synchronized (this) {
      holdIdle = false;
    }
    checkIdle();
  }

  /**
   * Makes the next {@code whenIdle()} call return a stage failed with {@code failure}.
   *
   * @param failure the failure
   */
  public synchronized void failNextIdle(Throwable failure) {
    failNextIdle = failure;
  }

  /**
   * Fails every idle wait currently pending.
   *
   * @param failure the failure
   */
  public void failPendingIdle(Throwable failure) {
    failIdleWaits(failure);
  }

  /**
   * How many times {@code whenIdle()} was called.
   *
   * @return the count
   */
  public synchronized int whenIdleCalls() {
    return whenIdleCalls;
  }

  @Override
  protected @Nullable Throwable idleWaitFault() {
    Throwable f = failNextIdle;
    failNextIdle = null;
    return f;
  }

  @Override
  protected boolean idleHeld() {
    return holdIdle;
  }

  // ---- inbox record --------------------------------------------------------------------------

  @Override
  protected void onQueued(UserMessage message, Lane lane) {
    if (lane == Lane.FOLLOWUP) {
      followups.add(message);
    } else if (lane == Lane.INJECT) {
      injections.add(message);
    }
  }

  @Override
  protected void onWithdrawn(String messageId) {
    withdrawn.add(messageId);
  }

  /**
   * Every message passed to {@code followup}, in order.
   *
   * @return the follow-ups
   */
  public synchronized List<UserMessage> followups() {
    return List.copyOf(followups);
  }

  /**
   * Every message passed to {@code inject} or {@code steer}, in order.
   *
   * @return the injections
   */
  public synchronized List<UserMessage> injections() {
    return List.copyOf(injections);
  }

  /**
   * Ids of messages removed by {@code withdraw}.
   *
   * @return the ids
   */
  public synchronized List<String> withdrawals() {
    return List.copyOf(withdrawn);
  }

  /** Fires the running turn's cancellation signal, if a turn runs. */
  public void cancelTurn() {
    cancelTurn("turn cancelled by the test");
  }
}
