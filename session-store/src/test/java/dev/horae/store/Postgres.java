package dev.horae.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One embedded PostgreSQL server per test JVM, started on first use and stopped when the JVM exits
 * (by the shutdown hook {@link EmbeddedPostgres} registers). Shared rather than started per test
 * class so a JVM that runs every PostgreSQL suite starts one server (PIT, which ran these suites
 * until 2026-12-05, ran each test method as its own execution, once per mutant). Tests keep apart
 * by using their own table prefix.
 *
 * <p>A PIT minion that times out halts its JVM, so no shutdown hook runs and the server would
 * outlive it with its data directory. A small shell watchdog started next to the server stops it
 * and removes the directory once this JVM is gone, however it ended; on a normal exit the hook has
 * already done both and the watchdog finds nothing left.
 */
public final class Postgres {

  private static @Nullable EmbeddedPostgres server;
  private static final java.util.concurrent.atomic.AtomicInteger PREFIXES = new java.util.concurrent.atomic.AtomicInteger();

  private Postgres() {}

  /**
   * Starts the server unless it runs.
   *
   * @throws IOException when it cannot start
   */
  public static synchronized void start() throws IOException {
    if (server == null) {
      Path data = Files.createTempDirectory("horae-pg");
      EmbeddedPostgres started =
          EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(true).start();
      server = started;
      reapAfterThisJvm(data);
    }
  }

  /**
   * Starts the watchdog: it polls this JVM once a second, then asks the server (its pid is the
   * first line of {@code postmaster.pid}: the server runs detached, not as a child of this JVM) for
   * a fast shutdown, waits up to 30 s for it and deletes the data directory.
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
    new ProcessBuilder("/bin/sh", "-c", script, "horae-pg-reaper",
        Long.toString(ProcessHandle.current().pid()), data.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /**
   * Runs one statement on its own connection.
   *
   * @param statement the SQL
   * @throws java.sql.SQLException when it fails
   */
  public static void sql(String statement) throws java.sql.SQLException {
    try (java.sql.Connection c = dataSource().getConnection(); java.sql.Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  /**
   * The first column of the first row a query answers, as text ({@code "null"} for SQL's null).
   *
   * @param query the SQL
   * @return the value
   * @throws java.sql.SQLException when it fails or answers no row
   */
  public static String query(String query) throws java.sql.SQLException {
    try (java.sql.Connection c = dataSource().getConnection(); java.sql.Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery(query)) {
      if (!r.next()) {
        throw new java.sql.SQLException("no row: " + query);
      }
      return String.valueOf(r.getString(1));
    }
  }

  /**
   * Connections to the server's {@code postgres} database.
   *
   * @return a data source
   * @throws IllegalStateException when {@link #start} was not called
   */
  public static synchronized DataSource dataSource() {
    EmbeddedPostgres s = server;
    if (s == null) {
      throw new IllegalStateException("PostgreSQL is not running");
    }
    return s.getPostgresDatabase();
  }

  /**
   * Starts the server unless it runs and returns its data source; for suites that start it lazily
   * (gate-runtime's JDBC dispatch suites use this class through session-store's test jar).
   *
   * @return a data source
   * @throws java.io.UncheckedIOException when the server cannot start
   */
  public static synchronized DataSource started() {
    try {
      start();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("embedded PostgreSQL did not start", e);
    }
    return dataSource();
  }

  /**
   * A table prefix no other caller of this JVM got, so suites sharing the one server keep apart.
   *
   * @return the prefix, e.g. {@code t7_}
   */
  public static String freshPrefix() {
    return "t" + PREFIXES.incrementAndGet() + "_";
  }
}
