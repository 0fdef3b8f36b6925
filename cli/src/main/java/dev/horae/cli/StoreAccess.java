package dev.horae.cli;

import dev.horae.console.LogBackend;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.SyncMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The store a command works on: a file store folder, read without locks ({@link
 * FileSessionStore#peek}), or a PostgreSQL store, read with plain queries. Only {@link #writer}
 * opens sessions for writing, and then under the store's own exclusion: the file store's folder
 * lock, or a JDBC session lease.
 */
final class StoreAccess implements LogBackend.Source, AutoCloseable {

  /** How long the CLI's lease on a JDBC session lasts; it renews at a third and releases on close. */
  static final Duration LEASE = Duration.ofSeconds(30);

  private final @Nullable Path dataDir;
  private final @Nullable JdbcSessionStore jdbc;
  private final @Nullable FileSessionStore listing;

  private StoreAccess(@Nullable Path dataDir, @Nullable JdbcSessionStore jdbc) {
    this.dataDir = dataDir;
    this.jdbc = jdbc;
    // listing ids opens no session: folder names only
    this.listing = dataDir == null ? null : FileSessionStore.open(dataDir, SyncMode.NEVER);
  }

  static StoreAccess files(Path dataDir) {
    if (!Files.isDirectory(dataDir)) {
      throw new CliException(ExitCode.UNREADABLE, "no data folder " + dataDir);
    }
    return new StoreAccess(dataDir, null);
  }

  static StoreAccess jdbc(String url, Optional<String> user, Optional<String> password, String tablePrefix) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    try {
      ds.setURL(url);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, "not a PostgreSQL JDBC URL: " + url + " (" + e.getMessage() + ")");
    }
    user.ifPresent(ds::setUser);
    password.ifPresent(ds::setPassword);
    return new StoreAccess(null, JdbcSessionStore.create(ds, tablePrefix));
  }

  @Override
  public String where() {
    return dataDir != null ? dataDir.toString() : "the JDBC store";
  }

  @Override
  public List<String> ids() {
    return List.copyOf(listing != null ? listing.ids() : jdbc().ids()).stream().sorted().toList();
  }

  @Override
  public Optional<StoredSession> read(String id) {
    return dataDir != null ? FileSessionStore.peek(dataDir, id) : jdbc().load(id);
  }

  StoredSession require(String id) {
    return read(id).orElseThrow(() -> new CliException(ExitCode.NOT_FOUND, "no session " + id + " in " + where()));
  }

  /**
   * A runtime over the store that may write: the file store (whose folder lock refuses a session
   * another process holds) or the JDBC store under this process's leases (a live lease of another
   * node refuses it).
   */
  HoraeRuntime writer(OperatorSetup setup, InstantSource clock, WarningSink warnings) {
    HoraeRuntime.Builder b = HoraeRuntime.builder().clock(clock).warnings(warnings).model(setup.model());
    if (dataDir != null) {
      b.dataDir(dataDir);
    } else {
      String owner = "horae-cli/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID();
      b.leases(jdbc().leases(owner, LEASE, clock));
    }
    HoraeRuntime runtime = b.build();
    try {
      setup.install(runtime);
    } catch (RuntimeException e) {
      runtime.close();
      throw new CliException(ExitCode.USAGE, "the setup " + setup.getClass().getName() + " failed to install: " + e.getMessage(), e);
    }
    return runtime;
  }

  private JdbcSessionStore jdbc() {
    JdbcSessionStore j = jdbc;
    if (j == null) {
      throw new IllegalStateException("not a JDBC store");
    }
    return j;
  }

  @Override
  public void close() {
    if (listing != null) {
      listing.close();
    }
  }
}
