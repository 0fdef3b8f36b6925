package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.testkit.TestHost;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScheduleCompanionTest {

  private static final String PREFIX = "invariant violated by \"@deepseek-ai/dsh-tool-schedule\": ";
  private static final SessionHeader ROOT = SessionHeader.root("s", 0, Optional.empty());

  private final ScheduleCompanion companion = ScheduleCompanion.instance();

  @Test
  void acceptsAValidLifecycleAndIgnoresOtherEvents() {
    List<SessionEvent> log = Changes.log(Changes.create("a"), "turn/start", Changes.create("b"), Changes.delete("a"), Changes.dispatch("b"), Changes.create("c"));
    assertThat(companion.checkLog(ROOT, log)).isEmpty();
    assertThat(companion.checkAppend(ROOT, log, event(log.size(), Changes.dispatch("c")))).isEmpty();
    // not a schedule/change: not even decoded
    assertThat(companion.checkAppend(ROOT, log, SessionEvent.of(log.size(), "turn/start", 0, Json.parse("7"))))
        .isEmpty();
  }

  static Stream<Arguments> corruptions() {
    return Stream.of(
        Arguments.of(List.of(Changes.create("a")), Changes.delete("missing"), "schedule delete targets inactive id \"missing\""),
        Arguments.of(List.of(Changes.create("a")), Changes.dispatch("missing"), "schedule dispatch targets inactive id \"missing\""),
        Arguments.of(List.of(Changes.create("a")), Changes.create("a"), "schedule id \"a\" was reused"),
        Arguments.of(List.of(Changes.create("a"), Changes.delete("a")), Changes.create("a"), "schedule id \"a\" was reused"),
        Arguments.of(List.of(Changes.create("a"), Changes.dispatch("a")), Changes.dispatch("a"), "schedule dispatch targets inactive id \"a\""),
        Arguments.of(List.of(Changes.create("a"), Changes.dispatch("a")), Changes.delete("a"), "schedule delete targets inactive id \"a\""),
        Arguments.of(List.of(), Json.parse("{\"version\":9,\"operation\":\"delete\",\"id\":\"a\"}"),
            "schedule/change version must be 1"),
        Arguments.of(List.of(), Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"a\",\"x\":1}"), null));
  }

  @ParameterizedTest
  @MethodSource("corruptions")
  void vetoesEachCorruptionTheFoldNamesAndLeavesTheLogUnchanged(List<JsonNode> before, JsonNode candidate, String message) {
    TestHost host = TestHost.builder().build();
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    before.forEach(p -> session.append(EventTypes.SCHEDULE_CHANGE, p));
    companion.register(host.invariants());
    List<SessionEvent> snapshot = session.events();

    org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> thrown = assertThatThrownBy(() -> session.append(EventTypes.SCHEDULE_CHANGE, candidate))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageStartingWith(PREFIX);
    if (message != null) {
      thrown.hasMessage(PREFIX + message);
    }
    assertThat(session.events()).isEqualTo(snapshot);
    // the offline replay reports the same event at its seq
    List<SessionEvent> written = Changes.log(before.toArray());
    List<LogFinding> found = companion.checkLog(ROOT, append(written, candidate));
    assertThat(found).singleElement().satisfies(f -> assertThat(f.seq()).hasValue(written.size()));
  }

  @Test
  void replayKeepsGoingAfterAVetoedEventAsIfItWereNeverWritten() {
    List<SessionEvent> log = Changes.log(Changes.create("a"), Changes.delete("x"), Changes.delete("a"), Changes.delete("a"));
    assertThat(companion.checkLog(ROOT, log))
        .extracting(LogFinding::reportLine)
        .containsExactly(
            "seq 1: " + PREFIX + "schedule delete targets inactive id \"x\"",
            "seq 3: " + PREFIX + "schedule delete targets inactive id \"a\"");
  }

  @Test
  void aForkFoldsOnlyItsOwnSuffix() {
    // the inherited prefix holds a corrupt change and the parent's "a"
    List<SessionEvent> log = Changes.log(Json.parse("{\"version\":9}"), Changes.create("a"), "session/end-seed", Changes.create("a"), Changes.delete("a"));
    SessionHeader child = ROOT.forkChild("child", 0, 2);
    assertThat(companion.checkLog(child, log)).isEmpty();
    assertThat(companion.checkAppend(child, log, event(log.size(), Changes.create("b")))).isEmpty();
    // a parent id is not active in the child
    assertThat(companion.checkAppend(child, log.subList(0, 3), event(3, Changes.delete("parent-only"))))
        .map(LogFinding::message)
        .contains("schedule delete targets inactive id \"parent-only\"");
    // the same log without the seed is corrupt at seq 0
    assertThat(companion.checkLog(ROOT, log)).first().satisfies(f -> assertThat(f.seq()).hasValue(0));
  }

  @Test
  void aSeedLongerThanTheLogIsReportedForTheWholeLog() {
    SessionHeader child = ROOT.forkChild("child", 0, 5);
    assertThat(companion.checkLog(child, Changes.log(Changes.create("a"))))
        .containsExactly(new LogFinding(Owners.SCHEDULE, OptionalLong.empty(),
            "schedule seedLength must be within the supplied event log", true));
  }

  @Test
  void registrationFailsWhileALiveSessionIsCorrupt() {
    TestHost host = TestHost.builder().build();
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("missing"));

    assertThatThrownBy(() -> companion.register(host.invariants()))
        .isInstanceOf(InvariantViolation.class)
        .hasMessage(PREFIX + "schedule delete targets inactive id \"missing\"");
    // nothing stayed registered: the corrupt append is still possible
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("other"));
  }

  @Test
  void aCorruptResumedSessionIsNeverRegistered() {
    TestHost host = TestHost.builder().build();
    companion.register(host.invariants());
    {
      SessionHeader header = SessionHeader.root("stored", 0, Optional.empty());
      host.store().put(new StoredSession(header, Changes.log(Changes.create("a"), Changes.create("a"))));

      assertThatThrownBy(() -> host.sessions().resume("stored"))
          .isInstanceOf(InvariantViolation.class)
          .hasMessage(PREFIX + "schedule id \"a\" was reused");
      assertThat(host.sessions().get("stored")).isEmpty();
    }
  }

  @Test
  void aLiveForkMayReuseItsParentsIdsInItsOwnSuffix() {
    TestHost host = TestHost.builder().build();
    companion.register(host.invariants());
    {
      Session parent = host.sessions().create(CreateOptions.DEFAULT);
      parent.append(EventTypes.SCHEDULE_CHANGE, Changes.create("a"));
      Session child = host.sessions().fork(parent, parent.length(), true);
      child.append(EventTypes.SCHEDULE_CHANGE, Changes.create("a"));
      assertThatThrownBy(() -> child.append(EventTypes.SCHEDULE_CHANGE, Changes.create("a")))
          .hasMessage(PREFIX + "schedule id \"a\" was reused");
      assertThat(child.events()).hasSize(3);
      assertThat(child.header().seedLength()).isEqualTo(1);
    }
  }

  @Test
  void aReplacedSessionIsFoldedAfreshNotFromTheCachedFold() {
    TestHost host = TestHost.builder().build();
    companion.register(host.invariants());
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.create("a"));
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.create("b"));
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("a"));
    // same id, same length, different events: resumed from a store that holds another history
    host.sessions().detach(session);
    host.store().put(new StoredSession(session.header(),
        Changes.log(Changes.create("a"), Changes.create("c"), Changes.delete("a"))));
    Session resumed = host.sessions().resume(session.id());

    assertThatThrownBy(() -> resumed.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("b")))
        .hasMessage(PREFIX + "schedule delete targets inactive id \"b\"");
    resumed.append(EventTypes.SCHEDULE_CHANGE, Changes.dispatch("c"));
    assertThat(resumed.events()).hasSize(4);
  }

  @Test
  void aClosedRegistrationChecksNothing() {
    TestHost host = TestHost.builder().build();
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    Registration r = companion.register(host.invariants());
    r.close();
    r.close();
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("missing"));
    assertThat(session.events()).hasSize(1);
  }

  @Test
  void aDisabledServiceRegistersNothing() {
    TestHost host = TestHost.builder().invariants(false).build();
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("missing"));
    companion.register(host.invariants());
    session.append(EventTypes.SCHEDULE_CHANGE, Changes.delete("missing"));
    assertThat(session.events()).hasSize(2);
  }

  private static SessionEvent event(long seq, JsonNode payload) {
    return SessionEvent.of(seq, EventTypes.SCHEDULE_CHANGE, 5000, payload);
  }

  private static List<SessionEvent> append(List<SessionEvent> log, JsonNode payload) {
    List<SessionEvent> out = new java.util.ArrayList<>(log);
    out.add(event(log.size(), payload));
    return out;
  }
}
