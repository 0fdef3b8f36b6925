package dev.horae.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One embedded PostgreSQL server per test JVM, started on first use and stopped when the JVM exits
 * (by the shutdown hook {@link EmbeddedPostgres} registers). Shared rather than started per test
 * class because PIT (profile {@code mutation}) runs every test method as its own JUnit execution,
 * once per mutant: a {@code @BeforeAll} start would start a server for each of them. Tests keep
 * apart by using their own table prefix.
 */
final class Postgres {

  private static @Nullable EmbeddedPostgres server;

  private Postgres() {}

  /**
   * Starts the server unless it runs.
   *
   * @throws IOException when it cannot start
   */
  static synchronized void start() throws IOException {
    if (server == null) {
      server = EmbeddedPostgres.start();
    }
  }

  /**
   * Connections to the server's {@code postgres} database.
   *
   * @return a data source
   * @throws IllegalStateException when {@link #start} was not called
   */
  static synchronized DataSource dataSource() {
    EmbeddedPostgres s = server;
    if (s == null) {
      throw new IllegalStateException("PostgreSQL is not running");
    }
    return s.getPostgresDatabase();
  }
}
