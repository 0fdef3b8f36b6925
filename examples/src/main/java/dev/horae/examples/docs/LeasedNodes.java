package dev.horae.examples.docs;

import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.time.Timers;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.LogSessions;
import dev.horae.store.SessionLeaseKeeper;
import dev.horae.store.SessionLeases;
import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javax.sql.DataSource;

/** The session-lease snippet of {@code docs/persistence.md}: one node of several on one database. */
public final class LeasedNodes {

  private LeasedNodes() {}

  /**
   * The sessions service of one node: every session it opens is leased to it, written under that
   * lease, and given up when the lease is lost.
   *
   * @param dataSource the shared PostgreSQL database
   * @param host this machine's name
   * @param clock the node's wall clock
   * @param timers the node's timers, which pace the renewals
   * @param executor where renewals and lost-lease listeners run
   * @param warnings where failed renewals and lost leases are reported
   * @param closeAgentsOf closes the agents of a session the node no longer owns
   * @return the node's sessions service
   */
  public static LogSessions node(
      DataSource dataSource, String host, InstantSource clock, Timers timers, Executor executor, WarningSink warnings,
      Consumer<String> closeAgentsOf) {
    // snippet:leased-node
    JdbcSessionStore store = JdbcSessionStore.create(dataSource);
    store.migrate();
    String owner = host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID();   // unique per process
    SessionLeases leases = store.leases(owner, Duration.ofSeconds(30), clock);
    SessionLeaseKeeper keeper = SessionLeaseKeeper.of(leases, timers, executor, warnings);
    LogSessions sessions = LogSessions.leased(keeper, clock, warnings);
    keeper.onLost((lease, why) -> closeAgentsOf.accept(lease.sessionId()));   // the node no longer owns it
    // end-snippet
    return sessions;
  }
}
