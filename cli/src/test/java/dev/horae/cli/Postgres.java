package dev.horae.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One embedded PostgreSQL server for this test JVM, on loopback, started on first use and stopped
 * by the shutdown hook {@link EmbeddedPostgres} registers.
 */
final class Postgres {

  private static @Nullable EmbeddedPostgres server;

  private Postgres() {}

  static synchronized EmbeddedPostgres server() throws IOException {
    EmbeddedPostgres s = server;
    if (s == null) {
      Path data = Files.createTempDirectory("horae-cli-pg");
      s = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(true).start();
      server = s;
    }
    return s;
  }

  static DataSource dataSource() throws IOException {
    return server().getPostgresDatabase();
  }

  /** The JDBC URL of the server's {@code postgres} database, with its user. */
  static String url() throws IOException {
    return server().getJdbcUrl("postgres", "postgres");
  }
}
