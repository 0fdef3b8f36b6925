package dev.horae.spi.session;

/**
 * Event type names the library reads or writes (host contract §3.2). They appear in persisted
 * logs and conformance vectors, so they are part of the contract.
 */
public final class EventTypes {
  /** {@code turn/start {turn}}. */
  public static final String TURN_START = "turn/start";
  /** {@code step/start {turn, step}}. */
  public static final String STEP_START = "step/start";
  /** {@code user/message} with the message as payload. */
  public static final String USER_MESSAGE = "user/message";
  /** {@code request/header}: one model request's configuration. */
  public static final String REQUEST_HEADER = "request/header";
  /** {@code assistant/chunk {turn, step, chunk}}. */
  public static final String ASSISTANT_CHUNK = "assistant/chunk";
  /** {@code assistant/message {turn, step, message, usage?}}. */
  public static final String ASSISTANT_MESSAGE = "assistant/message";
  /** {@code tool/call}. */
  public static final String TOOL_CALL = "tool/call";
  /** {@code tool/result}. */
  public static final String TOOL_RESULT = "tool/result";
  /** {@code step/end {turn, step}}. */
  public static final String STEP_END = "step/end";
  /** {@code turn/end {turn, reason}}. */
  public static final String TURN_END = "turn/end";
  /** {@code session/end-seed {}}: the marker a fork may append after the seed. */
  public static final String SESSION_END_SEED = "session/end-seed";
  /** {@code schedule/change}: Schedule's log-only state event. */
  public static final String SCHEDULE_CHANGE = "schedule/change";

  private EventTypes() {}
}
