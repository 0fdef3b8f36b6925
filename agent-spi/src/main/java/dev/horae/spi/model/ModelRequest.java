package dev.horae.spi.model;

import dev.horae.spi.AbortSignal;
import java.util.List;
import java.util.Objects;

/**
 * One step's request, rebuilt from the durable model-visible history after {@code step/start} and
 * the step's messages (host contract §6.3). It carries no time-context state of its own: the time
 * reading reaches the model as one of the history's user messages.
 *
 * @param agentId the agent whose step this is
 * @param sessionId the agent's session
 * @param turn the turn number
 * @param step the step number within the turn
 * @param systemPrompt the system prompt, with the registered prompt sections appended
 * @param messages the whole model-visible history, oldest first
 * @param tools the tools visible to the agent
 * @param signal the turn's cancellation signal
 * @param stream where a streaming model hands its partial text
 */
public record ModelRequest(
    String agentId,
    String sessionId,
    long turn,
    long step,
    String systemPrompt,
    List<ChatMessage> messages,
    List<ToolSpec> tools,
    AbortSignal signal,
    StreamSink stream) {

  /**
   * Validates and copies the request.
   *
   * @param agentId the agent
   * @param sessionId the session
   * @param turn the turn, positive
   * @param step the step, positive
   * @param systemPrompt the system prompt
   * @param messages the history
   * @param tools the tools
   * @param signal the signal
   * @param stream the stream sink
   */
  public ModelRequest {
    Objects.requireNonNull(agentId, "agentId");
    Objects.requireNonNull(sessionId, "sessionId");
    if (turn < 1 || step < 1) {
      throw new IllegalArgumentException("turn and step are positive, got " + turn + " and " + step);
    }
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(stream, "stream");
  }

  /**
   * The newest user messages: those after the last assistant message or tool result, the input of
   * this step.
   *
   * @return the step's user messages, oldest first
   */
  public List<ChatMessage.User> latestUserMessages() {
    int i = messages.size();
    while (i > 0 && messages.get(i - 1) instanceof ChatMessage.User) {
      i--;
    }
    return messages.subList(i, messages.size()).stream().map(ChatMessage.User.class::cast).toList();
  }
}
