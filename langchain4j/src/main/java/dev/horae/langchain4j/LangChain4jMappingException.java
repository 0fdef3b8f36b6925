package dev.horae.langchain4j;

import dev.horae.spi.HoraeException;
import java.util.Objects;

/**
 * A value that has no faithful counterpart on the other side of the LangChain4j mapping: a JSON
 * Schema LangChain4j cannot carry, or a LangChain4j schema Horae's subset cannot hold. The message is
 * stable ({@code <code>: <detail>}); nothing was sent or registered.
 */
public final class LangChain4jMappingException extends HoraeException {

  private static final long serialVersionUID = 1L;

  /** A tool schema that cannot be mapped faithfully. */
  public static final String UNSUPPORTED_SCHEMA = "unsupported-schema";

  private final String code;

  /**
   * Creates the failure.
   *
   * @param code {@link #UNSUPPORTED_SCHEMA}
   * @param detail what could not be mapped, and where
   */
  public LangChain4jMappingException(String code, String detail) {
    super(Objects.requireNonNull(code, "code") + ": " + Objects.requireNonNull(detail, "detail"));
    this.code = code;
  }

  /**
   * The stable code.
   *
   * @return {@link #UNSUPPORTED_SCHEMA}
   */
  public String code() {
    return code;
  }
}
