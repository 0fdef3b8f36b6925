package dev.horae.testkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.message.PromptRejectedException;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LifecycleTest extends SessionsFixture {

  @Test
  void createGivesFreshIdsAndAHeaderStampedByTheWallClock() {
    Session first = sessions.create(CreateOptions.DEFAULT);
    clock.advance(Duration.ofSeconds(1));
    Session second = sessions.create(CreateOptions.DEFAULT);

    assertThat(first.id()).isEqualTo("session-1");
    assertThat(second.id()).isEqualTo("session-2");
    SessionHeader h = first.header();
    assertThat(h.version()).isEqualTo(SessionHeader.CURRENT_VERSION);
    assertThat(h.createdAt()).isEqualTo(START.toEpochMilli());
    assertThat(second.header().createdAt()).isEqualTo(START.plusSeconds(1).toEpochMilli());
    assertThat(h.timeZone()).isEmpty();
    assertThat(h.parentSession()).isEmpty();
    assertThat(h.seedLength()).isZero();
    assertThat(sessions.get("session-1")).containsSame(first);
    assertThat(sessions.list()).containsExactly(first, second);
    assertThat(sessions.get("nope")).isEmpty();
  }

  @Test
  void theSessionZoneIsValidatedAndCanonicalized() {
    assertThat(sessions.create(CreateOptions.withTimeZone("europe/berlin")).header().timeZone()).contains("Europe/Berlin");
    assertThat(sessions.create(CreateOptions.withTimeZone("Asia/Calcutta")).header().timeZone()).contains("Asia/Kolkata");
    assertThat(sessions.create(CreateOptions.withTimeZone("UTC")).header().timeZone()).contains("UTC");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " UTC", "Europe/Berlin ", "EST", "Mars/Olympus_Mons", "GMT+1"})
  void anInvalidZoneIsRejectedWithInvalidTimeZone(String zone) {
    assertThatThrownBy(() -> sessions.create(CreateOptions.withTimeZone(zone)))
        .isInstanceOfSatisfying(PromptRejectedException.class, e -> {
          assertThat(e.code()).isEqualTo("invalid-time-zone");
          assertThat(e.getMessage()).isEqualTo("timeZone must be UTC or a valid IANA Area/Location name");
          assertThat(e.detail()).isEqualTo(zone);
        });
    assertThat(sessions.list()).isEmpty();
  }

  @Test
  void aPreallocatedIdRepeatedWithTheSameCanonicalZoneReturnsTheSameSession() {
    Session s = sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/w"), Optional.of("Asia/Kolkata")));

    Session again = sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/w"), Optional.of("asia/calcutta")));

    assertThat(again).isSameAs(s);
    assertThat(s.id()).isEqualTo("chat-7");
    assertThat(s.header().cwd()).contains("/w");
    assertThat(sessions.list()).hasSize(1);
  }

  @Test
  void aPreallocatedIdRepeatedWithADifferentZoneIsAConflict() {
    Session s = sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/w"), Optional.of("Europe/Paris")));

    assertThatThrownBy(() -> sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/w"), Optional.of("Europe/Berlin"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session \"chat-7\" already exists with a different time zone");
    assertThatThrownBy(() -> sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/w"), Optional.empty())))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> sessions.create(new CreateOptions(Optional.of("chat-7"), Optional.of("/other"), Optional.of("Europe/Paris"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("working directory");
    assertThat(sessions.get("chat-7")).containsSame(s);
  }

  @Test
  void aVetoingSessionCreatedListenerKeepsTheSessionUnregistered() {
    List<String> seen = new ArrayList<>();
    sessions.onSessionCreated((h, log) -> {
      seen.add(h.id() + " " + log.size());
      if (h.timeZone().isPresent()) {
        throw new IllegalStateException("zones refused");
      }
    });

    Session plain = sessions.create(CreateOptions.DEFAULT);
    assertThatThrownBy(() -> sessions.create(CreateOptions.withTimeZone("UTC"))).hasMessage("zones refused");

    assertThat(seen).containsExactly("session-1 0", "session-2 0");
    assertThat(sessions.list()).containsExactly(plain);
  }

  @Test
  void forkCopiesTheSeedAndSetsParentSeedLengthAndZone() {
    Session parent = sessions.create(CreateOptions.withTimeZone("Europe/Berlin"));
    parent.append("a", json("{\"i\":0}"));
    parent.append("b", json("{\"i\":1}"));
    parent.append("c", json("{\"i\":2}"));
    clock.advance(Duration.ofMinutes(1));

    Session child = sessions.fork(parent, 2, false);

    SessionHeader h = child.header();
    assertThat(child.id()).isNotEqualTo(parent.id());
    assertThat(h.parentSession()).contains(parent.id());
    assertThat(h.seedLength()).isEqualTo(2);
    assertThat(h.timeZone()).contains("Europe/Berlin");
    assertThat(h.createdAt()).isEqualTo(START.plusSeconds(60).toEpochMilli());
    assertThat(child.events()).isEqualTo(parent.events().subList(0, 2));

    SessionEvent own = child.append("d", json("{}"));
    assertThat(own.seq()).isEqualTo(2);
    assertThat(parent.length()).isEqualTo(3);
  }

  @Test
  void theEndSeedMarkerHasSeqEqualToSeedLength() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("a", json("{}"));
    parent.append("b", json("{}"));
    List<SessionEvent> observed = new ArrayList<>();
    sessions.onEvent((s, e) -> observed.add(e));

    Session child = sessions.fork(parent, 1, true);

    SessionEvent marker = child.events().get(1);
    assertThat(marker.type()).isEqualTo(EventTypes.SESSION_END_SEED);
    assertThat(marker.seq()).isEqualTo(child.header().seedLength()).isEqualTo(1);
    assertThat(marker.data()).isEqualTo(json("{}"));
    assertThat(observed).containsExactly(marker);
  }

  @Test
  void forkRunsSessionCreatedListenersWithTheSeed() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("bad", json("{}"));
    sessions.onSessionCreated((h, log) -> {
      if (log.stream().anyMatch(e -> e.type().equals("bad"))) {
        throw new IllegalStateException("bad seed");
      }
    });

    assertThatThrownBy(() -> sessions.fork(parent, 1, true)).hasMessage("bad seed");
    assertThat(sessions.list()).containsExactly(parent);
    assertThat(sessions.fork(parent, 0, false).events()).isEmpty();
  }

  @Test
  void aVetoedEndSeedMarkerWithdrawsTheChild() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    sessions.vetoNext(EventTypes.SESSION_END_SEED, new IllegalStateException("no marker"));

    assertThatThrownBy(() -> sessions.fork(parent, 0, true)).hasMessage("no marker");
    assertThat(sessions.list()).containsExactly(parent);
  }

  @Test
  void aForkBoundaryOutsideTheParentLogIsRejected() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("a", json("{}"));

    assertThatThrownBy(() -> sessions.fork(parent, 2, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> sessions.fork(parent, -1, false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void forkSeedLengthAndZoneSurvivePersistAndResume() {
    sessions.onFlush(store);
    Session parent = sessions.create(CreateOptions.withTimeZone("America/New_York"));
    parent.append("a", json("{\"x\":[1,2.50]}"));
    parent.append("b", json("{}"));
    Session child = sessions.fork(parent, 2, true);
    child.append("own", json("{}"));
    assertThat(sessions.flush(parent).toCompletableFuture().join()).isTrue();
    assertThat(sessions.flush(child).toCompletableFuture().join()).isTrue();

    InMemorySessions restarted = InMemorySessions.restartFrom(store, clock, warnings);

    Session resumedChild = restarted.get(child.id()).orElseThrow();
    assertThat(resumedChild).isNotSameAs(child);
    assertThat(resumedChild.header()).isEqualTo(child.header());
    assertThat(resumedChild.header().seedLength()).isEqualTo(2);
    assertThat(resumedChild.header().timeZone()).contains("America/New_York");
    assertThat(resumedChild.header().parentSession()).contains(parent.id());
    assertThat(resumedChild.events()).isEqualTo(child.events());
    assertThat(restarted.get(parent.id()).orElseThrow().events()).isEqualTo(parent.events());
    assertThat(resumedChild.append("after", json("{}")).seq()).isEqualTo(4);
    assertThat(restarted.flush(resumedChild).toCompletableFuture().join()).isTrue();
    assertThat(store.load(child.id()).orElseThrow().events()).hasSize(5);
  }

  @Test
  void freshIdsAfterARestartDoNotCollideWithStoredSessions() {
    sessions.onFlush(store);
    Session s = sessions.create(CreateOptions.DEFAULT);
    sessions.flush(s).toCompletableFuture().join();

    InMemorySessions restarted = InMemorySessions.restartFrom(store, clock, warnings);

    assertThat(restarted.create(CreateOptions.DEFAULT).id()).isNotEqualTo(s.id());
    assertThat(restarted.list()).hasSize(2);
  }

  @Test
  void resumeRunsSessionCreatedListenersThatCanVeto() {
    store.put(new StoredSession(SessionHeader.root("old", 1L, Optional.of("UTC")),
        List.of(SessionEvent.of(0, "x", 5L, json("{}")))));
    InMemorySessions fresh = new InMemorySessions(clock, warnings, store);
    List<String> seen = new ArrayList<>();
    fresh.onSessionCreated((h, log) -> {
      seen.add(h.id() + " " + log.size());
      throw new IllegalStateException("refused");
    });

    assertThatThrownBy(() -> fresh.resume("old")).hasMessage("refused");
    assertThat(seen).containsExactly("old 1");
    assertThat(fresh.list()).isEmpty();
  }

  @Test
  void resumeKeepsTheHeaderAsPersisted() {
    SessionHeader header = new SessionHeader(1, "old", 1L, Optional.of("/w"), Optional.of("p"), 1,
        Optional.of("subagent"), java.util.OptionalInt.of(2), Optional.of("preset"), Optional.of("Asia/Tokyo"));
    store.put(new StoredSession(header, List.of(SessionEvent.of(0, "x", 5L, json("{}")))));

    Session s = sessions.resume("old");

    assertThat(s.header()).isEqualTo(header);
    assertThat(s.events()).extracting(SessionEvent::time).containsExactly(5L);
  }

  @Test
  void resumeFailsForUnknownAlreadyLiveAndCorruptSessions() {
    assertThatThrownBy(() -> sessions.resume("missing")).isInstanceOf(NoSuchElementException.class);

    store.put(new StoredSession(SessionHeader.root("gap", 1L, Optional.empty()),
        List.of(SessionEvent.of(0, "x", 5L, json("{}")), SessionEvent.of(2, "y", 5L, json("{}")))));
    assertThatThrownBy(() -> sessions.resume("gap")).isInstanceOf(IllegalStateException.class).hasMessageContaining("corrupt");

    store.put(new StoredSession(SessionHeader.root("ok", 1L, Optional.empty()), List.of()));
    sessions.resume("ok");
    assertThatThrownBy(() -> sessions.resume("ok")).isInstanceOf(IllegalStateException.class).hasMessageContaining("already live");
  }

  @Test
  void aDetachedSessionRejectsAppendsAndIsNoLongerListed() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    sessions.detach(s);
    sessions.detach(s);

    assertThatThrownBy(() -> s.append("x", json("{}"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("not live");
    assertThat(sessions.get(s.id())).isEmpty();
    assertThat(sessions.list()).isEmpty();
  }

  @Test
  void detachAllStopsTheOldRuntime() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    sessions.detachAll();
    assertThatThrownBy(() -> s.append("x", json("{}"))).isInstanceOf(IllegalStateException.class);
    assertThat(sessions.list()).isEmpty();
  }
}
