package dev.horae.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * One embedded PostgreSQL server for a benchmark trial, and a fresh database on it per iteration
 * behind a connection pool, so every system under comparison starts each drain on empty tables and
 * none pays a TCP connect per statement.
 *
 * <p>A benchmark fork that is killed runs no shutdown hook, so the server would outlive it with
 * its data directory. A small shell watchdog started next to the server stops it and removes the
 * directory once this JVM is gone, however it ended (the same arrangement session-store's tests
 * use; written again here because benchmarks must not depend on another module's test classes).
 */
final class BenchPostgres implements AutoCloseable {

  private final EmbeddedPostgres server;
  private int databases;

  private BenchPostgres(EmbeddedPostgres server) {
    this.server = server;
  }

  /**
   * Starts a server on loopback with a fresh data directory.
   *
   * @return the running server
   * @throws IOException when it cannot start
   */
  static BenchPostgres start() throws IOException {
    Path data = Files.createTempDirectory("horae-bench-pg");
    EmbeddedPostgres started = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(true).start();
    reapAfterThisJvm(data);
    return new BenchPostgres(started);
  }

  /**
   * Polls this JVM once a second, then asks the server (its pid is the first line of {@code
   * postmaster.pid}: it runs detached, not as a child of this JVM) for a fast shutdown, waits up to
   * 30 s for it and deletes the data directory.
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
    new ProcessBuilder("/bin/sh", "-c", script, "horae-bench-pg-reaper",
        Long.toString(ProcessHandle.current().pid()), data.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /**
   * Creates an empty database and a pool on it.
   *
   * @param poolSize the pool's maximum connections
   * @return the pool; closing it does not drop the database, {@link #drop} does
   * @throws SQLException when the database cannot be created
   */
  synchronized HikariDataSource freshDatabase(int poolSize) throws SQLException {
    databases++;
    String name = "bench_" + databases;
    try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    HikariConfig config = new HikariConfig();
    config.setDataSource(server.getDatabase("postgres", name));
    config.setMaximumPoolSize(poolSize);
    config.setPoolName(name);
    return new HikariDataSource(config);
  }

  /**
   * Closes the pool and drops its database.
   *
   * @param pool a pool from {@link #freshDatabase}
   * @throws SQLException when the database cannot be dropped
   */
  void drop(HikariDataSource pool) throws SQLException {
    String name = Objects.requireNonNull(pool.getPoolName(), "pool name");
    pool.close();
    try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name);
    }
  }

  /**
   * Drops the pool's database, then stops the server, also when the drop fails: a trial's end.
   *
   * @param pool a pool from {@link #freshDatabase}
   * @throws IOException when the server cannot be stopped
   * @throws SQLException when the database cannot be dropped
   */
  void dropAndClose(HikariDataSource pool) throws IOException, SQLException {
    try {
      drop(pool);
    } finally {
      close();
    }
  }

  /** Stops the server and removes its data directory. */
  @Override
  public void close() throws IOException {
    server.close();
  }
}
