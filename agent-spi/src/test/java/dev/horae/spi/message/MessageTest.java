package dev.horae.spi.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MessageTest {

  @Test
  void sourcesHaveTheExactContractShapes() {
    assertThat(MessageSource.user().toString()).isEqualTo("{\"kind\":\"user\"}");
    assertThat(MessageSource.rpc("r1", Optional.of("Asia/Shanghai")).toString())
        .isEqualTo("{\"kind\":\"user\",\"rpcId\":\"r1\",\"clientTimeZone\":\"Asia/Shanghai\"}");
    assertThat(MessageSource.plugin("tool-schedule").toString()).isEqualTo("{\"kind\":\"plugin\",\"plugin\":\"tool-schedule\"}");
    assertThat(MessageSource.snapshot("time-context", List.of(Map.entry("time-context", "t"))).toString())
        .isEqualTo("{\"kind\":\"plugin\",\"plugin\":\"time-context\",\"form\":\"snapshot\",\"sections\":[{\"name\":\"time-context\",\"text\":\"t\"}]}");
    MessageSource notice = MessageSource.notice("jobs", "done");
    assertThat(notice.form()).contains("notice");
    assertThat(notice.isUser()).isFalse();
    assertThat(MessageSource.rpc("r", Optional.empty()).clientTimeZone()).isEmpty();
  }

  @Test
  void userMessageRoundTripsThroughItsEventPayload() {
    MessageFactory factory = new MessageFactory(() -> new UUID(0, 7));
    UserMessage m = factory.text("hello", MessageSource.rpc("r1", Optional.of("UTC")));
    assertThat(Json.write(m.toJson())).isEqualTo(
        "{\"id\":\"00000000-0000-0000-0000-000000000007\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],"
            + "\"source\":{\"kind\":\"user\",\"rpcId\":\"r1\",\"clientTimeZone\":\"UTC\"}}");
    assertThat(UserMessage.fromJson(m.toJson())).isEqualTo(m);
    assertThat(m.text()).isEqualTo("hello");
    assertThatThrownBy(() -> UserMessage.fromJson(Json.parse("{\"content\":[]}"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MessageSource.fromJson(Json.parse("{}"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void clientZonesAreAdmittedCanonicalOrRejectedWithTheStableError() {
    assertThat(PromptAdmission.admitClientZone("US/Eastern")).isEqualTo("America/New_York");
    assertThat(PromptAdmission.admitClientZone("asia/shanghai")).isEqualTo("Asia/Shanghai");
    assertThat(PromptAdmission.admitClientZone("UTC")).isEqualTo("UTC");
    assertThat(PromptAdmission.admitSessionZone("Etc/UTC")).isEqualTo("UTC");
    for (String bad : List.of("", " UTC", "utc", "GMT", "+08:00", "Not/A_Real_Zone")) {
      assertThatThrownBy(() -> PromptAdmission.admitClientZone(bad))
          .isInstanceOfSatisfying(PromptRejectedException.class, e -> {
            assertThat(e.code()).isEqualTo("invalid-time-zone");
            assertThat(e.getMessage()).isEqualTo("clientTimeZone must be UTC or a valid IANA Area/Location name");
            assertThat(e.detail()).isEqualTo(bad);
          });
    }
  }
}
