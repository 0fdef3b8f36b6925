package dev.horae.cli;

import static dev.horae.cli.Fixture.PARKED_RUN;
import static dev.horae.cli.Fixture.SESSION;
import static dev.horae.cli.Fixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.store.JdbcSessionStore;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The commands over PostgreSQL: a leased runtime wrote the fixture; the CLI reads it with plain
 * queries and answers the parked call under its own lease, and is refused while another node's
 * lease is live. Tagged {@code slow} with the other PostgreSQL suites (profile {@code slow}).
 */
@Tag("slow")
class JdbcStoreCliTest {

  @Test
  void theCommandsReadTheStoreAndApproveResumesTheParkedRunUnderALease() throws Exception {
    String prefix = "cli_a_";
    JdbcSessionStore store = JdbcSessionStore.create(Postgres.dataSource(), prefix);
    store.migrate();
    Fixture.write(HoraeRuntime.builder().leases(store.leases("writer", Duration.ofSeconds(30), InstantSource.system())));
    App.DEPLOYS.set(0);
    String[] db = {"--jdbc-url", Postgres.url(), "--table-prefix", prefix};

    JsonNode sessions = cli(with(db, "sessions", "--json")).json();
    assertThat(sessions.get(0).path("state").asText()).isEqualTo("parked turn-6");
    assertThat(cli(with(db, "reminders", "--json")).json().get(0).path("prompt").asText()).isEqualTo("join the review");
    assertThat(cli(with(db, "runs", "--awaiting", "--json")).json().get(0).path("runId").asText()).isEqualTo(PARKED_RUN);
    assertThat(cli(with(db, "jobs", "--json")).json()).hasSize(1);
    assertThat(cli(with(db, "check")).exit()).isEqualTo(ExitCode.OK);
    assertThat(cli(with(db, "tail", SESSION, "-n", "2")).out().lines().count()).isEqualTo(2);

    // another node holds the session: the CLI is refused and writes nothing
    try (HoraeRuntime node = HoraeRuntime.builder().leases(store.leases("node-b", Duration.ofSeconds(30), InstantSource.system())).build()) {
      App.wire(node, true);
      var unused = node.openAgent(SESSION);
      Fixture.Run held = cli(with(db, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName()));
      assertThat(held.exit()).as(held.err()).isEqualTo(ExitCode.HELD);
      assertThat(held.err()).contains("session ops-1 is held by another process").contains("is leased by owner node-b")
          .contains("Nothing was written");
    }
    assertThat(App.DEPLOYS.get()).isZero();

    Fixture.Run approved = cli(with(db, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName()));
    assertThat(approved.exit()).as(approved.err()).isEqualTo(ExitCode.OK);
    assertThat(approved.out()).isEqualTo("approved ops-1/turn-6: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)\n");
    assertThat(App.DEPLOYS.get()).isEqualTo(1);
    assertThat(cli(with(db, "runs", "--awaiting", "--json")).json()).isEmpty();
    assertThat(store.load(SESSION).orElseThrow().events()).last()
        .satisfies(e -> assertThat(e.data().toString()).isEqualTo("{\"turn\":6,\"reason\":\"completed\"}"));
  }

  @Test
  void anUnreachableDatabaseIsUnreadable() {
    Fixture.Run run = cli("--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "sessions");
    assertThat(run.exit()).isEqualTo(ExitCode.UNREADABLE);
    assertThat(cli("--jdbc-url", "not-a-url", "sessions").exit()).isEqualTo(ExitCode.USAGE);
  }

  private static String[] with(String[] db, String... rest) {
    String[] all = new String[db.length + rest.length];
    System.arraycopy(db, 0, all, 0, db.length);
    System.arraycopy(rest, 0, all, db.length, rest.length);
    return all;
  }
}
