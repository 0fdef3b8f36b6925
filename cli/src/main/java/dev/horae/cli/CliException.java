package dev.horae.cli;

import dev.horae.spi.HoraeException;

/**
 * A command's failure with its exit status and the message shown on standard error; a {@link
 * HoraeException}, the library's one exception root (architecture's {@code ExceptionRootTest}).
 */
final class CliException extends HoraeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
