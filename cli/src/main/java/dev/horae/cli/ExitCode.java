package dev.horae.cli;

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
}
