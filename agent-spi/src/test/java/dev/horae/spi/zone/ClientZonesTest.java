package dev.horae.spi.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client-zone derivation (time-context spec §9). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ClientZonesTest {

  private static JsonNode source(String json) {
    return Json.parse("{\"role\":\"user\",\"content\":[],\"source\":" + json + "}");
  }

  @Test
  void onlyRpcPromptsWithStringMembersContribute() {
    assertThat(ClientZones.contributedZone(Logs.prompt("r", "UTC"))).hasValue("UTC");
    assertThat(ClientZones.contributedZone(source("{\"kind\":\"user\"}"))).isEmpty();
    assertThat(ClientZones.contributedZone(source("{\"kind\":\"user\",\"rpcId\":7,\"clientTimeZone\":\"UTC\"}")))
        .isEmpty();
    assertThat(ClientZones.contributedZone(source("{\"kind\":\"user\",\"rpcId\":\"r\",\"clientTimeZone\":null}")))
        .isEmpty();
    assertThat(ClientZones.contributedZone(
        source("{\"kind\":\"plugin\",\"plugin\":\"x\",\"rpcId\":\"r\",\"clientTimeZone\":\"UTC\"}"))).isEmpty();
    assertThat(ClientZones.contributedZone(Json.parse("{}"))).isEmpty();
  }

  @Test
  void zonesAreDeduplicatedAndSortedByCodeUnits() {
    assertThat(ClientZones.derive(List.of(
        Logs.prompt("a", "Europe/London"), Logs.prompt("b", "America/New_York"), Logs.prompt("c", "Europe/London"),
        source("{\"kind\":\"user\"}"))))
        .containsExactly("America/New_York", "Europe/London");
    assertThat(ClientZones.derive(List.of())).isEmpty();
  }

  @Test
  void aRejectedZoneFailsTheWholeDerivationWithTheSpecText() {
    assertThatThrownBy(() -> ClientZones.classify(List.of("UTC", "CST")))
        .isExactlyInstanceOf(ClientZoneException.class)
        .hasMessage("browser time zone must be canonical UTC or IANA Area/Location: \"CST\"");
    assertThatThrownBy(() -> ClientZones.classify(List.of("Mars/Olympus_Mons", "CST")))
        .hasMessage("browser time zone is unsupported: \"Mars/Olympus_Mons\"");
    assertThatThrownBy(() -> ClientZones.classify(List.of("Asia/Shanghai", "Etc/UTC")))
        .hasMessage("browser time zone must be canonical: \"Etc/UTC\"");
    assertThatThrownBy(() -> ClientZones.classify(List.of("asia/shanghai")))
        .hasMessage("browser time zone must be canonical: \"asia/shanghai\"");
    assertThatThrownBy(() -> ClientZones.derive(List.of(Logs.prompt("r", "US/Eastern\n"))))
        .hasMessage("browser time zone must be canonical UTC or IANA Area/Location: \"US/Eastern\\n\"");
  }
}
