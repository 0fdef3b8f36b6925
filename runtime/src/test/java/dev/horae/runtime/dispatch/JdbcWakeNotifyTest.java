package dev.horae.runtime.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.gate.runtime.DispatcherOptions;
import dev.horae.gate.runtime.DurableDispatcher;
import dev.horae.gate.runtime.JdbcDispatchQueue;
import dev.horae.store.Postgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The PostgreSQL queue's wake notifications under the production engine (gate specification
 * §12.5.7): a parking commit notifies its prefix's channel, except a parking commit of a Run whose
 * record the committing worker holds running, which that worker goes on to perform in the same
 * drive. The queue-level notification rules are gate-runtime's {@code PgWakeSignalTest}.
 */
@Tag("slow")
@Tag("postgres")
@Timeout(60)
class JdbcWakeNotifyTest {

  // a lease far longer than the test, so only the worker's own drive performs the actions
  private static final long HOUR = 3_600_000;

  @TempDir
  Path dir;

  @Test
  void aParkingCommitOfARunItsWorkerIsDrivingDoesNotNotify() throws Exception {
    try (DispatchRig rig = DispatchRig.of(DispatchRig.Kind.JDBC, dir);
        Connection raw = Postgres.started().getConnection(); Statement st = raw.createStatement()) {
      String channel = ((JdbcDispatchQueue) rig.queue).wakeChannel();
      // a raw listener, so the payloads show which notification is which: every notification sent
      // before the test's marker arrives before it
      st.execute("LISTEN " + channel);
      rig.scheduleEveryCall();
      rig.execute("run-1", "calls:2");

      // the worker performs the action and the Run parks on a second one while its record is
      // running: the outbox leaves the row to the worker, which performs that one in the same drive
      DurableDispatcher d = rig.dispatcher("owner-a", DispatcherOptions.withLease(HOUR));
      assertThat(DispatchRig.tick(d).result()).isEqualTo(DurableDispatcher.Result.DONE);
      assertThat(rig.toolRuns).hasValue(2);

      try (Connection c = Postgres.started().getConnection();
          PreparedStatement p = c.prepareStatement("SELECT pg_notify(?, 'marker')")) {
        p.setString(1, channel);
        p.execute();
      }
      List<String> payloads = new ArrayList<>();
      PGConnection pg = raw.unwrap(PGConnection.class);
      while (!payloads.contains("marker")) {
        PGNotification[] got = pg.getNotifications(Math.toIntExact(DispatchRig.BOUND_S * 1000));
        assertThat(got).as("notifications arrived").isNotEmpty();
        for (PGNotification n : got) {
          payloads.add(n.getParameter());
        }
      }
      assertThat(payloads).as("the first parking commit notified, the second did not").containsExactly("", "marker");
    }
  }
}
