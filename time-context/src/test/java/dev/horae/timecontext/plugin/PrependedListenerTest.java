package dev.horae.timecontext.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.agent.StepDecision;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.spi.zone.TimeContextAuthority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spec §2: the listener is registered <em>prepended</em>, so it is the outermost listener even
 * when another pre-step listener was registered before the plugin loaded. Being outermost is what
 * lets it see the final downstream decision and sample the clock after everything below it ran.
 */
// a separate thread, so a join that never completes fails the test instead of hanging the run
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrependedListenerTest {

  private static final Instant START = Instant.parse("2026-07-14T00:00:00Z");

  @Test
  void aListenerRegisteredBeforeThePluginStillRunsInsideIt() {
    TestHost host = TestHost.builder().start(START).build();
    UserMessage note =
        UserMessage.fromJson(
            Json.parse(
                "{\"id\":\"policy-note\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"policy"
                    + " note\"}],\"source\":{\"kind\":\"plugin\",\"plugin\":\"policy\"}}"));
    // registered first and not prepended: in registration order it would run before time-context
    host.agents()
        .onPreStep(
            step ->
                step.next()
                    .thenApply(
                        decision -> {
                          // moves the clock after its own downstream: only an outer listener
                          // samples later than this
                          host.time().setWall(START.plusSeconds(42));
                          List<UserMessage> messages =
                              new ArrayList<>(((StepDecision.Enter) decision).messages());
                          messages.add(note);
                          return new StepDecision.Enter(messages);
                        }),
            false);
    host.install(TimeContextPlugin.create());
    TestAgent agent = host.createAgent().useModel(new ScriptedModel());
    host.prompt(agent, "hello");
    host.settle();

    List<SessionEvent> messages =
        agent.session().events().stream()
            .filter(e -> e.type().equals(EventTypes.USER_MESSAGE))
            .toList();
    // the prompt, then the inner listener's message, then the reading: the reading sees (and
    // follows) the final downstream decision
    assertThat(messages).hasSize(3);
    assertThat(messages.get(1).data().path("id").asText()).isEqualTo("policy-note");
    SessionEvent reading = messages.get(2);
    assertThat(TimeContextAuthority.isReading(reading.data())).isTrue();
    assertThat(reading.data().path("content").get(0).path("text").asText())
        .startsWith(
            "Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:42+00:00[UTC]\n");
  }
}
