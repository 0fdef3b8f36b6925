package dev.horae.store;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child-JVM main of {@link FileStoreRulesTest}: tries once to open a session (args: store root,
 * session id) and prints {@code locked out} when another process holds it, {@code opened}
 * otherwise.
 */
public final class LockProbe {

  private LockProbe() {}

  /**
   * Runs the probe.
   *
   * @param args store root and session id
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(Path.of(args[0]))) {
      store.load(args[1]);
      out.print("opened\n");
    } catch (CommitLogLockedException e) {
      out.print("locked out\n");
    }
    out.flush();
  }
}
