package dev.horae.cli;

/** A command's failure with its exit status and the message shown on standard error. */
final class CliException extends RuntimeException {
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
