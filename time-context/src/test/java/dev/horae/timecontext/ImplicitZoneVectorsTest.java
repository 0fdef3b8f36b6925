package dev.horae.timecontext;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.zone.ZoneResolver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The public {@code schedule.implicitZone} vectors, decided with {@link TimeContextAuthority} and
 * the decision rule of schedule spec §6.8.3: the authority Schedule relies on is this one.
 */
class ImplicitZoneVectorsTest {

  @TestFactory
  Stream<DynamicTest> implicitZoneVectors() throws IOException {
    List<JsonNode> cases = new ArrayList<>();
    try (InputStream in = getClass().getResourceAsStream("/vectors/schedule-implicit-zone.jsonl")) {
      BufferedReader r = new BufferedReader(new InputStreamReader(in == null ? InputStream.nullInputStream() : in, StandardCharsets.UTF_8));
      r.lines().filter(l -> !l.isBlank()).map(Json::parse).forEach(cases::add);
    }
    assertThat(cases).hasSize(15);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.get("id").textValue(), () -> check(c)));
  }

  private static void check(JsonNode c) {
    JsonNode args = c.get("args");
    JsonNode zone = args.path("header").path("timeZone");
    Optional<String> sessionZone = zone.isTextual() ? Optional.of(zone.textValue()) : Optional.empty();
    Optional<TimeContextAuthority> authority = TimeContextAuthority.of(VectorCases.events(args.get("events")), sessionZone);
    JsonNode expect = c.get("expect");
    Optional<String> confirmed =
        authority.flatMap(a -> a.client() instanceof ClientZoneContext.Resolved r
                && a.sessionZone().flatMap(ZoneResolver.standard()::canonicalName).filter(r.zone()::equals).isPresent()
            ? Optional.of(r.zone())
            : Optional.empty());
    if (expect.has("value")) {
      assertThat(confirmed).hasValue(expect.get("value").get("timeZone").textValue());
      return;
    }
    assertThat(confirmed).isEmpty();
    JsonNode error = expect.get("error");
    assertThat(sessionZone.orElse("unavailable")).isEqualTo(error.get("sessionTimeZone").textValue());
    List<String> clientZones = new ArrayList<>();
    authority.map(TimeContextAuthority::client).ifPresent(client -> {
      if (client instanceof ClientZoneContext.Resolved r) {
        clientZones.add(r.zone());
      } else if (client instanceof ClientZoneContext.Mixed m) {
        clientZones.addAll(m.zones());
      }
    });
    List<String> expected = new ArrayList<>();
    error.get("clientTimeZones").forEach(z -> expected.add(z.textValue()));
    assertThat(clientZones).isEqualTo(expected);
  }
}
