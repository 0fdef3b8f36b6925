package dev.horae.cli;

import dev.horae.console.ConsoleFailure;

/** The exit statuses of {@code horae}; docs/operations.md lists them with their causes. */
public final class ExitCode {

  /** The command did what it was asked. */
  public static final int OK = 0;
  /** {@code check} found invariant violations. */
  public static final int VIOLATIONS = 1;
  /** Bad usage: an unknown command or option, a missing argument, an unusable setup class. */
  public static final int USAGE = 2;
  /** The session or run named does not exist, or the run is not awaiting. */
  public static final int NOT_FOUND = 3;
  /**
   * The session is held by another process (the file store's lock, a live JDBC lease): nothing was
   * written.
   */
  public static final int HELD = 4;
  /** The gate's resume rules refused the answer (for instance {@code fingerprintMismatch}): nothing was written. */
  public static final int REJECTED = 5;
  /** {@code approve}/{@code deny} without {@code --setup}: the CLI cannot run the application's tools and model. */
  public static final int NEEDS_SETUP = 6;
  /** The store cannot be read: corrupt, unreachable, or an I/O failure. */
  public static final int UNREADABLE = 7;
  /** The answer was committed but its durability could not be confirmed: check with {@code tail}. */
  public static final int UNCERTAIN = 8;

  private ExitCode() {}

  /**
   * The exit status of a console failure of {@code kind}: the command line and the web console
   * report one failure alike.
   *
   * @param kind the kind
   * @return the exit status
   */
  public static int of(ConsoleFailure.Kind kind) {
    return switch (kind) {
      case USAGE -> USAGE;
      case NOT_FOUND -> NOT_FOUND;
      case HELD -> HELD;
      case REJECTED -> REJECTED;
      case NEEDS_SETUP -> NEEDS_SETUP;
      case UNREADABLE -> UNREADABLE;
      case UNCERTAIN -> UNCERTAIN;
      // no listed status: any other failure exits 1, as check's violations do
      case FAILED -> VIOLATIONS;
    };
  }

  /**
   * The console failure kind of an exit status, the inverse of {@link #of}.
   *
   * @param exitCode the exit status
   * @return the kind; {@code FAILED} for a status no kind has
   */
  public static ConsoleFailure.Kind kind(int exitCode) {
    return switch (exitCode) {
      case USAGE -> ConsoleFailure.Kind.USAGE;
      case NOT_FOUND -> ConsoleFailure.Kind.NOT_FOUND;
      case HELD -> ConsoleFailure.Kind.HELD;
      case REJECTED -> ConsoleFailure.Kind.REJECTED;
      case NEEDS_SETUP -> ConsoleFailure.Kind.NEEDS_SETUP;
      case UNREADABLE -> ConsoleFailure.Kind.UNREADABLE;
      case UNCERTAIN -> ConsoleFailure.Kind.UNCERTAIN;
      default -> ConsoleFailure.Kind.FAILED;
    };
  }
}
