package dev.horae.springai;

import dev.horae.spi.HoraeException;

/**
 * A gate answered {@code ask} (RequireConfirmation) or {@code schedule} (Schedule) for a call made
 * inside a {@code ChatClient} loop. Parking a call needs a durable turn that the answer can
 * continue (gate specification §8.1, §9.1); the borrowed loop has none, so the call fails
 * instead of running, and no tool result is made up for it. The message is stable:
 *
 * <pre>
 * spring-ai: the gate answered ask for tool "delete_artifacts" (call call-7): a ChatClient loop
 * cannot park a call; run this conversation through HoraeRuntime with SpringAiModelPort
 * (runtime-driven mode, docs/spring-ai.md), which commits the call and waits for approve/deny or
 * performs the scheduled action
 * </pre>
 */
public final class BorrowedLoopGateException extends HoraeException {

  private static final long serialVersionUID = 1L;

  private final String outcome;
  private final String tool;
  private final String callId;

  /**
   * Creates the exception.
   *
   * @param outcome the gate's audit label, {@code ask} or {@code schedule}
   * @param tool the tool the model called
   * @param callId the model's call id
   */
  public BorrowedLoopGateException(String outcome, String tool, String callId) {
    super("spring-ai: the gate answered " + outcome + " for tool \"" + tool + "\" (call " + callId
        + "): a ChatClient loop cannot park a call; run this conversation through HoraeRuntime with"
        + " SpringAiModelPort (runtime-driven mode, docs/spring-ai.md), which commits the call and"
        + " waits for approve/deny or performs the scheduled action");
    this.outcome = outcome;
    this.tool = tool;
    this.callId = callId;
  }

  /**
   * The gate's audit label.
   *
   * @return {@code ask} or {@code schedule}
   */
  public String outcome() {
    return outcome;
  }

  /**
   * The tool the model called.
   *
   * @return the tool name
   */
  public String tool() {
    return tool;
  }

  /**
   * The model's call id.
   *
   * @return the call id
   */
  public String callId() {
    return callId;
  }
}
