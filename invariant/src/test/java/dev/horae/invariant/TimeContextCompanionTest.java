package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.ReadingMessages;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TimeContextCompanionTest {

  private static final String PREFIX = "invariant violated by \"@deepseek-ai/dsh-time-context\": ";
  private static final Instant START = Instant.parse("2026-07-14T00:00:00Z");
  private static final String LINE1 = "Time sampled while preparing turn 1, step 1: 2026-07-14T00:00:00+00:00[UTC]";
  private static final String FIRST_ELAPSED = "Elapsed since the preceding model-visible message: unavailable.";
  private static final String MISSING_ZONE =
      "Browser time zone for this request: unavailable. Ask the user to clarify otherwise-unqualified dates and times.";

  // ---- readings written by the plugin on the reference host ---------------------------------------

  @Test
  void acceptsEveryReadingThePluginWritesInBothForms() {
    for (boolean guided : List.of(false, true)) {
      TestHost host = TestHost.builder().start(START).build();
      Companions.registerAll(host);
      host.install(TimeContextPlugin.create(TimeContextConfig.builder().clientZoneGuidance(guided).build()));
      TestAgent agent = host.createAgent().useModel(new ScriptedModel().thenText("one").thenText("two").thenText("three"));
      host.prompt(agent, "hello", "rpc-1", Optional.of("Asia/Shanghai"));
      host.settle();
      host.advance(Duration.ofMinutes(3));
      host.prompt(agent, "again");
      host.settle();
      host.advance(Duration.ofHours(2));
      host.prompt(agent, "third", "rpc-2", Optional.of("Europe/Paris"));
      host.settle();

      Session session = agent.session();
      List<SessionEvent> readings = session.events().stream()
          .filter(e -> e.type().equals(EventTypes.USER_MESSAGE) && ReadingMessages.isAttributed(e.data()))
          .toList();
      assertThat(readings).hasSize(3);
      assertThat(TimeContextCompanion.instance().checkLog(session.header(), session.events())).isEmpty();
      assertThat(host.warnings().messages()).isEmpty();
    }
  }

  @Test
  void acceptsHandWrittenReadingsOfBothFormsAndALongPauseBeforeTheAppend() {
    Fixture f = new Fixture(false);
    f.setUp(Events.OPEN_STEP);
    f.host.time().advance(Duration.ofHours(5));
    f.append(reading(LINE1 + "\n" + FIRST_ELAPSED));
    f.append(reading(LINE1 + "\n" + MISSING_ZONE + "\n" + FIRST_ELAPSED));
    assertThat(f.session.events()).hasSize(5);
    assertThat(TimeContextCompanion.instance().checkLog(f.session.header(), f.session.events())).isEmpty();
  }

  // ---- each corruption of spec §11.2 ---------------------------------------------------------------

  static Stream<Arguments> corruptions() {
    String valid = LINE1 + "\n" + FIRST_ELAPSED;
    ObjectNode twoBlocks = reading(valid);
    twoBlocks.withArray("content").add(twoBlocks.withArray("content").get(0).deepCopy());
    ObjectNode extraSource = reading(valid);
    ((ObjectNode) extraSource.get("source")).put("clientTimeZone", "UTC");
    return Stream.of(
        Arguments.of("content", Events.OPEN_STEP, twoBlocks, "time-context messages must contain exactly one text block"),
        Arguments.of("grammar", Events.OPEN_STEP, reading("Time is now."), "time-context message does not match the durable reading format"),
        Arguments.of("numbers", Events.OPEN_STEP, reading(valid.replace("turn 1, step 1", "turn 0, step 1")),
            "time-context turn and step must be positive safe integers"),
        Arguments.of("no open turn", Events.NOTHING, reading(valid), "time-context reading must be appended inside an open turn"),
        Arguments.of("no open step", Events.OPEN_TURN, reading(valid), "time-context reading must follow step/start"),
        Arguments.of("after request", Events.REQUEST_STARTED, reading(valid), "time-context reading must precede request/header"),
        Arguments.of("wrong step", Events.OPEN_STEP, reading(valid.replace("step 1:", "step 2:").replace("model-visible message", "step context")),
            "time-context reading names turn 1/step 2, expected turn 1/step 1"),
        Arguments.of("source", Events.OPEN_STEP, extraSource,
            "time-context source must carry only the exact snapshot text, not request authority"),
        Arguments.of("zone line", Events.OPEN_STEP,
            reading(LINE1 + "\nBrowser time zone for this request: UTC. Interpret otherwise-unqualified dates and times in that zone.\n" + FIRST_ELAPSED),
            "time-context browser-zone text does not match current-turn user messages"),
        Arguments.of("baseline", Events.OPEN_STEP, reading(LINE1 + "\nElapsed since the preceding step context: unavailable."),
            "time-context step 1 uses the wrong elapsed-time baseline \"step context\""),
        Arguments.of("postdates", Events.OPEN_STEP, reading(valid.replace("00:00:00+00:00", "00:00:01+00:00")),
            "time-context rendered timestamp must parse and not postdate its durable event"),
        Arguments.of("not a date", Events.OPEN_STEP, reading(valid.replace("2026-07-14T", "2026-02-30T")),
            "time-context rendered timestamp must parse and not postdate its durable event"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corruptions")
  void vetoesEachCorruptionAndLeavesTheLogUnchanged(String name, Events before, ObjectNode candidate, String message) {
    Fixture f = new Fixture(false);
    f.setUp(before);
    List<SessionEvent> snapshot = f.session.events();

    assertThatThrownBy(() -> f.append(candidate))
        .isInstanceOf(InvariantViolation.class)
        .hasMessage(PREFIX + message);
    assertThat(f.session.events()).isEqualTo(snapshot);
  }

  @Test
  void aResolvedClientZoneMustRenderTheTimestamp() {
    Fixture f = new Fixture(true);
    f.setUp(Events.OPEN_STEP);
    String zoneLine = dev.horae.timecontext.ClientZoneContext.of(List.of("Asia/Shanghai")).line();
    List<SessionEvent> snapshot = f.session.events();
    assertThatThrownBy(() -> f.append(reading(LINE1 + "\n" + zoneLine + "\n" + FIRST_ELAPSED)))
        .hasMessage(PREFIX + "time-context rendered timestamp does not match the unique browser zone");
    assertThat(f.session.events()).isEqualTo(snapshot);
    f.append(reading(LINE1.replace("00:00:00+00:00[UTC]", "08:00:00+08:00[Asia/Shanghai]") + "\n" + zoneLine + "\n" + FIRST_ELAPSED));
  }

  @Test
  void aFailedClientZoneDerivationVetoesWithItsOwnMessage() {
    Fixture f = new Fixture(false);
    f.session.append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
    f.session.append(EventTypes.USER_MESSAGE, Json.parse(
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"source\":{\"kind\":\"user\",\"rpcId\":\"r\",\"clientTimeZone\":\"Not/A_Real_Zone\"}}"),
        AppendOptions.VISIBLE);
    f.session.append(EventTypes.STEP_START, Json.parse("{\"turn\":1,\"step\":1}"));
    List<SessionEvent> snapshot = f.session.events();

    assertThatThrownBy(() -> f.append(reading(LINE1 + "\n" + MISSING_ZONE + "\n" + FIRST_ELAPSED)))
        .isExactlyInstanceOf(ClientZoneException.class)
        .hasMessage("browser time zone is unsupported: \"Not/A_Real_Zone\"");
    assertThat(f.session.events()).isEqualTo(snapshot);
    // the two-line form makes no client-zone claim, so the same turn accepts it
    f.append(reading(LINE1 + "\n" + FIRST_ELAPSED));
  }

  @Test
  void otherMessagesAndEventsAreIgnored() {
    Fixture f = new Fixture(false);
    f.session.append(EventTypes.USER_MESSAGE, Json.parse("{\"role\":\"user\",\"content\":[],\"source\":{\"kind\":\"user\"}}"));
    f.session.append("host/anything", Json.parse("[1,2]"));
    f.session.append(EventTypes.USER_MESSAGE, Json.parse("{\"content\":\"x\",\"source\":{\"kind\":\"plugin\",\"plugin\":\"other\"}}"));
    assertThat(f.session.events()).hasSize(3);
  }

  @Test
  void theOfflineReplayReportsEveryBadReadingWithItsSeq() {
    Fixture f = new Fixture(false);
    f.setUp(Events.OPEN_STEP);
    List<SessionEvent> log = new java.util.ArrayList<>(f.session.events());
    log.add(SessionEvent.of(3, EventTypes.USER_MESSAGE, START.toEpochMilli(), reading("bad")));
    log.add(SessionEvent.of(4, EventTypes.USER_MESSAGE, START.toEpochMilli(), reading(LINE1 + "\n" + FIRST_ELAPSED)));
    log.add(SessionEvent.of(5, EventTypes.REQUEST_HEADER, START.toEpochMilli(), Json.parse("{}")));
    log.add(SessionEvent.of(6, EventTypes.USER_MESSAGE, START.toEpochMilli(), reading(LINE1 + "\n" + FIRST_ELAPSED)));
    assertThat(TimeContextCompanion.instance().checkLog(f.session.header(), log))
        .extracting(LogFinding::reportLine)
        .containsExactly(
            "seq 3: " + PREFIX + "time-context message does not match the durable reading format",
            "seq 6: " + PREFIX + "time-context reading must precede request/header");
  }

  @Test
  void aResumedSessionWithABadReadingIsRefused() {
    TestHost host = TestHost.builder().start(START).build();
    TimeContextCompanion.instance().register(host.invariants());
    dev.horae.spi.session.SessionHeader header = dev.horae.spi.session.SessionHeader.root("old", 0, Optional.empty());
    List<SessionEvent> log = List.of(
        SessionEvent.of(0, EventTypes.TURN_START, 0, Json.parse("{\"turn\":1}")),
        SessionEvent.of(1, EventTypes.STEP_START, 0, Json.parse("{\"turn\":1,\"step\":1}")),
        SessionEvent.of(2, EventTypes.USER_MESSAGE, START.toEpochMilli(), reading(LINE1.replace("step 1:", "step 3:") + "\n" + FIRST_ELAPSED)));
    host.store().put(new dev.horae.spi.session.StoredSession(header, log));
    assertThatThrownBy(() -> host.sessions().resume("old"))
        .hasMessage(PREFIX + "time-context reading names turn 1/step 3, expected turn 1/step 1");
    assertThat(host.sessions().get("old")).isEmpty();
  }

  // ---- fixtures --------------------------------------------------------------------------------------

  enum Events { NOTHING, OPEN_TURN, OPEN_STEP, REQUEST_STARTED }

  private static ObjectNode reading(String text) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("id", "reading-1");
    message.put("role", "user");
    message.set("content", ReadingMessages.content(text));
    message.set("source", ReadingMessages.source(text));
    return message;
  }

  private static final class Fixture {
    final TestHost host = TestHost.builder().start(START).build();
    final Session session = host.sessions().create(CreateOptions.DEFAULT);
    final boolean shanghaiPrompt;

    Fixture(boolean shanghaiPrompt) {
      this.shanghaiPrompt = shanghaiPrompt;
      TimeContextCompanion.instance().register(host.invariants());
    }

    void setUp(Events state) {
      if (state == Events.NOTHING) {
        return;
      }
      session.append(EventTypes.TURN_START, Json.parse("{\"turn\":1}"));
      String source = shanghaiPrompt
          ? "{\"kind\":\"user\",\"rpcId\":\"r\",\"clientTimeZone\":\"Asia/Shanghai\"}"
          : "{\"kind\":\"user\"}";
      session.append(EventTypes.USER_MESSAGE,
          Json.parse("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"source\":" + source + "}"),
          AppendOptions.VISIBLE);
      if (state == Events.OPEN_TURN) {
        return;
      }
      session.append(EventTypes.STEP_START, Json.parse("{\"turn\":1,\"step\":1}"));
      if (state == Events.REQUEST_STARTED) {
        session.append(EventTypes.REQUEST_HEADER, Json.parse("{}"));
      }
    }

    void append(JsonNode reading) {
      session.append(EventTypes.USER_MESSAGE, reading, AppendOptions.VISIBLE);
    }
  }
}
