package dev.horae.invariant.internal.cli;

import dev.horae.invariant.LogFinding;
import dev.horae.invariant.SessionLogCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code invariant check FILE...}: reads session logs in the file store's format and runs every
 * log companion over each. Each {@code FILE} is a session folder, a file inside one (such as its
 * {@code events.log}) or a store root.
 *
 * <p>Prints one line per violation, {@code <folder>: seq <n>: invariant violated by "<owner>":
 * <message>}, and {@code <folder>: ok} for a clean session. Exit status: 0 when every session is
 * clean, 1 when any violation was found, 2 when an argument is unusable or a log unreadable (that
 * wins over 1; the other arguments are still checked).
 */
public final class CheckCommand {

  /** Every session is clean. */
  public static final int CLEAN = 0;
  /** At least one violation. */
  public static final int VIOLATIONS = 1;
  /** Bad usage or unreadable input. */
  public static final int UNREADABLE = 2;

  private CheckCommand() {}

  /**
   * Runs the command and exits with its status.
   *
   * @param args {@code check FILE...}
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(Arrays.asList(args), out, err));
  }

  /**
   * Runs the command.
   *
   * @param args {@code check FILE...}
   * @param out receives the report
   * @param err receives usage, unreadable-input and torn-tail notes
   * @return the exit status
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.size() < 2 || !args.get(0).equals("check")) {
      err.println("usage: invariant check FILE...");
      err.println("  FILE: a session folder (header.json + events.log), a file in one, or a store root");
      return UNREADABLE;
    }
    boolean unreadable = false;
    boolean violations = false;
    for (String arg : args.subList(1, args.size())) {
      List<Path> folders;
      try {
        folders = SessionFolders.resolve(Path.of(arg));
      } catch (IllegalArgumentException | UncheckedIOException e) {
        err.println(arg + ": unreadable: " + e.getMessage());
        unreadable = true;
        continue;
      }
      for (Path folder : folders) {
        StoredLog log;
        try {
          log = SessionFolders.read(folder);
        } catch (IOException | RuntimeException e) {
          // a corrupt or unreadable log is not a verdict on its invariants
          err.println(folder + ": unreadable: " + e.getMessage());
          unreadable = true;
          continue;
        }
        log.tornTail().ifPresent(note -> err.println(folder + ": note: " + note));
        List<LogFinding> found = SessionLogCheck.check(log.header(), log.events());
        if (found.isEmpty()) {
          out.println(folder + ": ok (" + log.events().size() + " events)");
        }
        for (LogFinding f : found) {
          out.println(folder + ": " + f.reportLine());
        }
        violations |= !found.isEmpty();
      }
    }
    return unreadable ? UNREADABLE : violations ? VIOLATIONS : CLEAN;
  }
}
