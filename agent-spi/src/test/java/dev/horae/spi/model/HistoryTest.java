package dev.horae.spi.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SurfaceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The model-visible history projection (host contract §3.5, §3.7, §6.3). */
@Timeout(10)
class HistoryTest {

  private final List<SessionEvent> log = new ArrayList<>();

  private void add(String type, String data, Optional<SurfaceOp> op) {
    log.add(new SessionEvent(log.size(), type, 0L, Json.parse(data), op, List.of()));
  }

  private void visible(String type, String data) {
    add(type, data, Optional.of(SurfaceOp.APPEND));
  }

  private static String user(String id, String text) {
    return "{\"id\":\"" + id + "\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + text
        + "\"}],\"source\":{\"kind\":\"user\"}}";
  }

  @Test
  void visibleEventsBecomeTypedMessagesAndLogOnlyEventsAreLeftOut() {
    add("turn/start", "{\"turn\":1}", Optional.empty());
    visible("user/message", user("m1", "hi"));
    add("schedule/change", "{\"op\":\"create\"}", Optional.empty());
    visible("assistant/message", "{\"turn\":1,\"step\":1,\"message\":{\"role\":\"assistant\",\"content\":[],"
        + "\"toolCalls\":[{\"callId\":\"c1\",\"tool\":\"echo\",\"args\":{\"t\":1}}]}}");
    visible("tool/call", "{\"callId\":\"c1\",\"tool\":\"echo\",\"args\":{\"t\":1}}");
    visible("tool/result", "{\"callId\":\"c1\",\"tool\":\"echo\",\"isError\":true,"
        + "\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}");
    List<ChatMessage> h = History.of(log);
    assertThat(h).hasSize(3);
    assertThat(((ChatMessage.User) h.get(0)).text()).isEqualTo("hi");
    assertThat(((ChatMessage.Assistant) h.get(1)).toolCalls()).singleElement()
        .satisfies(c -> assertThat(c.arguments().path("t").asInt()).isEqualTo(1));
    assertThat(h.get(2)).isEqualTo(new ChatMessage.ToolOutcome("c1", "echo", "a\nb", true));
  }

  @Test
  void aCompactionReplacementHidesTheRangeItSummarisesAndStandsInItsPlace() {
    visible("user/message", user("m1", "one"));
    visible("user/message", user("m2", "two"));
    visible("user/message", user("m3", "three"));
    add("user/message", user("sum", "summary of one and two"), Optional.of(new SurfaceOp.Replace(0, 1)));
    assertThat(History.of(log)).extracting(m -> ((ChatMessage.User) m).text())
        .containsExactly("three", "summary of one and two");
  }

  @Test
  void anUnreadableVisibleEventIsLeftOutRatherThanBlockingTheHistory() {
    visible("user/message", "{\"no\":\"id\"}");
    visible("user/message", user("m2", "still here"));
    assertThat(History.of(log)).extracting(m -> ((ChatMessage.User) m).text()).containsExactly("still here");
  }

  @Test
  void theIncrementalProjectionEqualsTheFullOneAfterEveryAppendIncludingAReplacement() {
    History.Incremental inc = new History.Incremental();
    visible("user/message", user("m1", "one"));
    assertThat(inc.update(log)).isEqualTo(History.of(log));
    add("turn/start", "{\"turn\":1}", Optional.empty());
    visible("user/message", user("m2", "two"));
    assertThat(inc.update(log)).isEqualTo(History.of(log));
    add("user/message", user("sum", "summary"), Optional.of(new SurfaceOp.Replace(0, 2)));
    assertThat(inc.update(log)).isEqualTo(History.of(log)).hasSize(1);
    visible("user/message", user("m3", "three"));
    assertThat(inc.update(log)).isEqualTo(History.of(log)).hasSize(2);
  }
}
