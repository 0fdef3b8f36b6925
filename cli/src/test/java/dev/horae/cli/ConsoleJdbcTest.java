package dev.horae.cli;

import static dev.horae.cli.ConsoleClient.assertRefused;
import static dev.horae.cli.Fixture.SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.cli.console.WebConsole;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.Json;
import dev.horae.store.JdbcSessionStore;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The console over PostgreSQL: it reads the store a leased runtime wrote, an answer is refused
 * {@code 409 held} while another node's lease is live, and then lands under the console's own
 * lease. Tagged {@code slow} with the other PostgreSQL suites.
 */
@Tag("slow")
class ConsoleJdbcTest {

  @Test
  void theConsoleReadsAPostgresStoreAndApprovesUnderItsOwnLease() throws Exception {
    String prefix = "cli_console_";
    JdbcSessionStore store = JdbcSessionStore.create(Postgres.dataSource(), prefix);
    store.migrate();
    Fixture.write(HoraeRuntime.builder().leases(store.leases("writer", Duration.ofSeconds(30), InstantSource.system())));
    App.DEPLOYS.set(0);
    try (StoreAccess access = StoreAccess.jdbc(Postgres.url(), Optional.empty(), Optional.empty(), prefix);
        WebConsole console = WebConsole.start(new StoreBackend(access, Fixture.CLI_CLOCK, Setups.Deploy::new, 30,
            (message, cause) -> { }), InetAddress.getLoopbackAddress(), 0, Optional.empty())) {
      ConsoleClient c = new ConsoleClient(console);
      assertThat(c.getJson("/api/sessions").path("sessions").get(0).path("state").asText()).isEqualTo("parked turn-6");
      assertThat(c.getJson("/api/awaiting").path("awaiting").get(0).path("runId").asText()).isEqualTo(Fixture.PARKED_RUN);
      assertThat(c.getJson("/api/timeline?session=ops-1").path("entries").findValuesAsText("title"))
          .contains("gate: run ops-1/turn-6 awaiting");

      try (HoraeRuntime node = HoraeRuntime.builder().leases(store.leases("node-b", Duration.ofSeconds(30), InstantSource.system())).build()) {
        App.wire(node, true);
        var unused = node.openAgent(SESSION);
        int before = store.load(SESSION).orElseThrow().events().size();
        HttpResponse<String> held = c.answer("/api/approve", "{\"runId\":\"ops-1/turn-6\"}");
        assertRefused(held, 409, "held");
        assertThat(Json.parse(held.body()).path("message").asText()).contains("is leased by owner node-b");
        assertThat(store.load(SESSION).orElseThrow().events()).hasSize(before);
      }
      assertThat(App.DEPLOYS.get()).isZero();

      HttpResponse<String> approved = c.answer("/api/approve", "{\"runId\":\"ops-1/turn-6\"}");
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
      JsonNode o = Json.parse(approved.body());
      assertThat(o.path("runState").asText()).isEqualTo("ended");
      assertThat(App.DEPLOYS.get()).isEqualTo(1);
      assertThat(store.load(SESSION).orElseThrow().events()).last()
          .satisfies(e -> assertThat(e.data().toString()).isEqualTo("{\"turn\":6,\"reason\":\"completed\"}"));
      assertThat(c.getJson("/api/awaiting").path("awaiting")).isEmpty();
    }
  }
}
