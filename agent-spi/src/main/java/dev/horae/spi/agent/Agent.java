package dev.horae.spi.agent;

import dev.horae.spi.Registration;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.session.Session;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A live agent (host contract §5.2). Compared by identity: after disposal or replacement the
 * registry returns a different instance.
 */
public interface Agent {

  /**
   * The agent id; for a session-backed agent, the session id.
   *
   * @return the id
   */
  String id();

  /**
   * The id of the owning agent, for child agents (subagents).
   *
   * @return the parent id, or empty for a root agent
   */
  Optional<String> parentId();

  /**
   * The agent's live session.
   *
   * @return the session
   */
  Session session();

  /**
   * The agent scope: registrations visible only to this agent, closed at disposal.
   *
   * @return the scope
   */
  Scope scope();

  /**
   * The public status.
   *
   * @return {@code IDLE} or {@code RUNNING}
   */
  AgentStatus status();

  /**
   * Claims the idle phase (§5.3) and runs {@code task} before returning.
   *
   * @param task the task
   * @param <T> the result type
   * @return a stage completing like the task's
   * @throws IllegalStateException {@code agent "<id>" already has active work} when a turn or
   *     another maintenance task is active; the task then never runs
   */
  <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task);

  /**
   * Completes once no driver and no maintenance task remains, following replacement work (§5.4).
   *
   * @return the idle stage; exceptional when the agent is disposed
   */
  CompletionStage<Void> whenIdle();

  /**
   * Queues a message that opens a new turn and wakes the agent (latched while busy).
   *
   * @param message the message
   */
  void followup(UserMessage message);

  /**
   * Queues a message for the next step without waking.
   *
   * @param message the message
   */
  void inject(UserMessage message);

  /**
   * Queues a message for the next step and wakes the agent.
   *
   * @param message the message
   */
  void steer(UserMessage message);

  /**
   * Removes a queued message no turn has claimed yet (§5.5).
   *
   * @param messageId the message id
   * @return true when it was removed
   */
  boolean withdraw(String messageId);

  /**
   * Listens for inbox claims of this agent.
   *
   * @param listener the listener
   * @return a handle that removes it
   */
  Registration onInboxClaimed(InboxClaimListener listener);
}
