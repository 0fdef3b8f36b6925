package dev.horae.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child-JVM main of {@link LockTest}: opens a session (args: store root, session id), prints
 * {@code locked}, holds it until its stdin closes, then prints {@code released}.
 */
public final class LockHolder {

  private LockHolder() {}

  /**
   * Runs the holder.
   *
   * @param args store root and session id
   * @throws IOException when stdin fails
   */
  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(Path.of(args[0]))) {
      Logs.persist(store, Logs.header(args[1]), Logs.log(2));
      out.print("locked\n");
      out.flush();
      while (System.in.read() >= 0) {
        // hold the lock until the parent closes our stdin
      }
    }
    out.print("released\n");
    out.flush();
  }
}
