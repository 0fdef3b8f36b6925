package dev.horae.conformance.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A host under test, as the scenario steps drive it. Everything the library itself sees goes
 * through {@link #host()} (the host contract); the other methods are the test controls a
 * reference host offers: a manual clock, scripted models, busy and idle agents, inbox views,
 * scripted flush outcomes and a restart.
 */
public interface ScenarioHost {

  /**
   * The host contract the plugins are installed on.
   *
   * @return the host
   */
  Host host();

  /**
   * Creates a session and a root agent over it.
   *
   * @param options session options (zone, id)
   * @return the agent
   */
  Agent createAgent(CreateOptions options);

  /**
   * Creates a root agent over an existing live session (after a restart or a fork).
   *
   * @param session the session
   * @return the agent
   */
  Agent agentFor(Session session);

  /**
   * Creates a child agent (never a root) with its own session.
   *
   * @param parent the parent agent
   * @return the child
   */
  Agent createChildAgent(Agent parent);

  /**
   * Scripts the agent's model: each turn step consumes the next reply. A reply is {@code
   * {"text": s}}, {@code {"call": {"tool", "args", "callId"?}}}, {@code {"calls": [..]}} or
   * {@code {"fail": message}}.
   *
   * @param agent the agent
   * @param replies the replies, in order
   * @throws IllegalArgumentException on a reply of another shape
   */
  void script(Agent agent, List<JsonNode> replies);

  /**
   * Submits a user prompt; with an RPC id it is an RPC prompt carrying the optional client zone.
   *
   * @param agent the agent
   * @param text the prompt text
   * @param rpcId the RPC request id, or empty for a plain user prompt
   * @param clientTimeZone the raw client zone of an RPC prompt
   * @throws RuntimeException when the host rejects the prompt (for example an invalid zone)
   */
  void prompt(Agent agent, String text, Optional<String> rpcId, Optional<String> clientTimeZone);

  /** Runs every queued turn driver until none is left. */
  void settle();

  /**
   * Advances the wall clock and monotonic time together, runs due timers, then settles.
   *
   * @param amount how far
   */
  void advance(Duration amount);

  /**
   * Moves the wall clock alone (a jump or a rollback); monotonic time and timers stay.
   *
   * @param wall the new wall clock
   */
  void setWall(Instant wall);

  /**
   * Changes the process zone (read by plugins at install).
   *
   * @param zone the zone
   */
  void setProcessZone(ZoneId zone);

  /**
   * Marks the agent busy (running a turn the scenario drives by hand).
   *
   * @param agent the agent
   */
  void setBusy(Agent agent);

  /**
   * Marks the agent idle again, which lets queued follow-ups start a turn.
   *
   * @param agent the agent
   */
  void setIdle(Agent agent);

  /**
   * Every message queued to the agent with {@code followup}, in order.
   *
   * @param agent the agent
   * @return the messages
   */
  List<UserMessage> followUps(Agent agent);

  /**
   * Every message injected into the agent's running turn with {@code inject}, in order.
   *
   * @param agent the agent
   * @return the messages
   */
  List<UserMessage> injections(Agent agent);

  /**
   * Scripts the store: the next {@code after} flushes complete, then {@code count} flushes fail
   * with {@code message}.
   *
   * @param after how many flushes complete first
   * @param count how many then fail
   * @param message the failure message
   */
  void failFlushes(int after, int count, String message);

  /**
   * Holds the next store flush pending until {@link #releaseFlush} or {@link #failHeldFlush}.
   *
   * @param name a handle name for later steps
   */
  void holdNextFlush(String name);

  /**
   * Completes a held flush normally.
   *
   * @param name the handle name
   * @throws IllegalArgumentException on an unknown name
   */
  void releaseFlush(String name);

  /**
   * Fails a held flush.
   *
   * @param name the handle name
   * @param message the failure message
   * @throws IllegalArgumentException on an unknown name
   */
  void failHeldFlush(String name, String message);

  /**
   * A fresh runtime over this host's durable store: live state is dropped, every persisted
   * session is resumed, no agent and no plugin exists; the clock carries over.
   *
   * @return the new host
   */
  ScenarioHost restart();

  /**
   * Starts disposing an agent; its scope effects may wait (for example on jobs to settle).
   *
   * @param agent the agent
   * @return a stage completing when disposal finished
   */
  CompletionStage<Void> dispose(Agent agent);

  /**
   * The ids of the agent's queued messages withdrawn so far, in order.
   *
   * @param agent the agent
   * @return the message ids
   */
  List<String> withdrawals(Agent agent);

  /**
   * The warnings logged so far.
   *
   * @return the messages
   */
  List<String> warnings();

  /**
   * Pending monotonic timers.
   *
   * @return how many
   */
  int pendingTimers();
}
