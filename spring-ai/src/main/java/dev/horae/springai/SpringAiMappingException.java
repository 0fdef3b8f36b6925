package dev.horae.springai;

import dev.horae.spi.HoraeException;
import org.jspecify.annotations.Nullable;

/**
 * A value that cannot cross between Horae and Spring AI: a model response without a result, a
 * tool call whose arguments are not a JSON object, a tool schema that is not JSON, a model whose
 * options cannot carry tools. The message starts with {@code spring-ai: } and is stable, so
 * callers may match on it.
 */
public final class SpringAiMappingException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the stable message, without the {@code spring-ai: } prefix
   */
  public SpringAiMappingException(String message) {
    super("spring-ai: " + message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message the stable message, without the {@code spring-ai: } prefix
   * @param cause what failed underneath
   */
  public SpringAiMappingException(String message, @Nullable Throwable cause) {
    super("spring-ai: " + message, cause);
  }
}
