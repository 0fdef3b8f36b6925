package dev.horae.jobs.shell.internal;

import java.util.Locale;
import java.util.Optional;

/**
 * Signal names of the shell-job outcome mapping (jobs spec §7.3): the JVM reports a process killed
 * by signal S as exit value 128 + S, so the platform table turns that back into a name. Pure.
 */
public final class Signals {

  private static final String[] LINUX = {
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
    "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
    "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"
  };

  private static final String[] MACOS = {
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "EMT", "FPE", "KILL", "BUS", "SEGV", "SYS",
    "PIPE", "ALRM", "TERM", "URG", "STOP", "TSTP", "CONT", "CHLD", "TTIN", "TTOU", "IO", "XCPU",
    "XFSZ", "VTALRM", "PROF", "WINCH", "INFO", "USR1", "USR2"
  };

  /** The platform whose table applies. */
  public enum Platform {
    /** Linux numbering. */
    LINUX,
    /** macOS numbering. */
    MACOS,
    /** No exit value decodes as a signal. */
    WINDOWS;

    /**
     * Picks the platform from an {@code os.name} value.
     *
     * @param osName e.g. {@code Linux}, {@code Mac OS X}, {@code Windows 11}
     * @return the platform
     */
    public static Platform of(String osName) {
      String os = osName.toLowerCase(Locale.ROOT);
      if (os.startsWith("windows")) {
        return WINDOWS;
      }
      return os.contains("mac") || os.contains("darwin") ? MACOS : LINUX;
    }
  }

  private Signals() {}

  /**
   * Decodes an exit value as a signal.
   *
   * @param platform the platform
   * @param exitValue the process exit value
   * @return {@code SIG<NAME>} when {@code exitValue - 128} is in the platform table
   */
  public static Optional<String> fromExitValue(Platform platform, int exitValue) {
    String[] table =
        switch (platform) {
          case LINUX -> LINUX;
          case MACOS -> MACOS;
          case WINDOWS -> new String[0];
        };
    int signal = exitValue - 128;
    if (signal < 1 || signal > table.length) {
      return Optional.empty();
    }
    return Optional.of("SIG" + table[signal - 1]);
  }
}
