package dev.horae.langchain4j;

import dev.horae.spi.HoraeException;
import java.util.Objects;

/**
 * What the borrowed loop ({@link BorrowedLoop}, an {@code AiServices} call) cannot do, thrown out
 * of the application's AiServices method with a stable code and message. docs/langchain4j.md
 * lists each code.
 */
public final class BorrowedLoopException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /**
   * A gate answered {@code requireConfirmation} or {@code schedule}: only the runtime-driven mode
   * can park a call durably. The call was not performed; the session log records it as not
   * performed and the turn as ended {@code error}.
   */
  public static final String PARKING_UNSUPPORTED = "parking-unsupported";
  /** The agent of the memory id already has work: a runtime turn, a parked call, another call. */
  public static final String AGENT_BUSY = "agent-busy";
  /** The session log is append-only: AiServices asked to delete or rewrite its memory. */
  public static final String APPEND_ONLY = "append-only";
  /** A pre-step listener rejected the step (host contract §6.2): the model call was not made. */
  public static final String STEP_REJECTED = "step-rejected";

  private final String code;

  /**
   * Creates the failure.
   *
   * @param code {@link #PARKING_UNSUPPORTED}, {@link #AGENT_BUSY}, {@link #APPEND_ONLY} or {@link
   *     #STEP_REJECTED}
   * @param message the stable message
   */
  public BorrowedLoopException(String code, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.code = Objects.requireNonNull(code, "code");
  }

  /**
   * The stable code.
   *
   * @return the code
   */
  public String code() {
    return code;
  }
}
