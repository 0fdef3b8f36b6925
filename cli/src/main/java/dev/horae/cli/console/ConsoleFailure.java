package dev.horae.cli.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.HoraeException;
import org.jspecify.annotations.Nullable;

/**
 * A refused or failed console request: the exit status the command line would exit with ({@link
 * dev.horae.cli.ExitCode}) and its message, and for an answer whose durability is uncertain, the
 * answer's outcome.
 */
public final class ConsoleFailure extends HoraeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;
  private final transient @Nullable JsonNode outcome;

  /**
   * A failure.
   *
   * @param exitCode the command line's exit status for it
   * @param message what the operator is told
   * @param outcome the answer's outcome when it was given but is not confirmed durable
   */
  public ConsoleFailure(int exitCode, String message, @Nullable JsonNode outcome) {
    super(message);
    this.exitCode = exitCode;
    this.outcome = outcome;
  }

  /**
   * The exit status.
   *
   * @return one of {@link dev.horae.cli.ExitCode}'s values
   */
  public int exitCode() {
    return exitCode;
  }

  /**
   * The answer's outcome, when it was given.
   *
   * @return the outcome or null
   */
  public @Nullable JsonNode outcome() {
    return outcome;
  }
}
