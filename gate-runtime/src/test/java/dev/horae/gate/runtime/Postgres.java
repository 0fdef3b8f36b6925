package dev.horae.gate.runtime;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One embedded PostgreSQL server per test JVM, started on first use and stopped when the JVM exits
 * (by the shutdown hook {@link EmbeddedPostgres} registers). Shared rather than started per test
 * class because PIT runs every test method as its own JUnit execution, once per mutant. Tests keep
 * apart by using their own table prefix ({@link #freshPrefix}).
 *
 * <p>A PIT minion that times out halts its JVM, so no shutdown hook runs and the server would
 * outlive it with its data directory: a small shell watchdog started next to the server stops it
 * and removes the directory once this JVM is gone, however it ended.
 */
final class Postgres {

  private static @Nullable EmbeddedPostgres server;
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private Postgres() {}

  /** Starts the server unless it runs; a failure to start fails the test. */
  static synchronized void start() {
    if (server == null) {
      try {
        Path data = Files.createTempDirectory("horae-gate-pg");
        server = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(true).start();
        reapAfterThisJvm(data);
      } catch (IOException e) {
        throw new UncheckedIOException("embedded PostgreSQL did not start", e);
      }
    }
  }

  /**
   * The watchdog: polls this JVM once a second, then asks the server (the first line of {@code
   * postmaster.pid}: it runs detached, not as a child of this JVM) for a fast shutdown, waits up to
   * 30 s and deletes the data directory.
   */
  private static void reapAfterThisJvm(Path data) throws IOException {
    if (!new File("/bin/sh").canExecute()) {
      // no POSIX shell (Windows): the shutdown hook alone stops the server
      return;
    }
    String script = "while kill -0 \"$1\" 2>/dev/null; do sleep 1; done; "
        + "pg=$(head -n 1 \"$2/postmaster.pid\" 2>/dev/null); "
        // only a process that still runs on this data directory: never a reused pid
        + "if [ -n \"$pg\" ] && ps -p \"$pg\" -o args= 2>/dev/null | grep -qF -- \"$2\"; then "
        + "kill -INT \"$pg\" 2>/dev/null; i=0; "
        + "while kill -0 \"$pg\" 2>/dev/null && [ \"$i\" -lt 30 ]; do sleep 1; i=$((i + 1)); done; fi; "
        + "rm -rf \"$2\"";
    new ProcessBuilder("/bin/sh", "-c", script, "horae-gate-pg-reaper",
        Long.toString(ProcessHandle.current().pid()), data.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** Connections to the server's {@code postgres} database; starts it first. */
  static synchronized DataSource dataSource() {
    start();
    return java.util.Objects.requireNonNull(server).getPostgresDatabase();
  }

  /** A table prefix no other test of this JVM uses. */
  static String freshPrefix() {
    return "gt" + PREFIXES.incrementAndGet() + "_";
  }
}
