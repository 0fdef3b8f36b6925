package dev.horae.store;

import static dev.horae.store.Logs.event;
import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.session.SurfaceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every durable {@link SessionStore} of this module shares, run against each of
 * them: round trips across a reopen, forks with their seed, refusal of logs that do not continue
 * what is stored, stale snapshots, and concurrent persists of one session.
 */
abstract class SessionStoreContract {

  /** The store under test (the same instance until {@link #reopen}). */
  abstract SessionStore store();

  /** Drops the current store and opens a fresh one over the same durable data. */
  abstract SessionStore reopen();

  private void persist(SessionHeader header, List<SessionEvent> log) {
    store().persist(header, log).toCompletableFuture().join();
  }

  @Test
  void roundTripsHeaderAndEventsAcrossReopen() {
    SessionHeader header = header("s1");
    List<SessionEvent> log = new ArrayList<>(log(3));
    ObjectNode data = Json.mapper().createObjectNode();
    data.set("price", Json.parse("30.0"));
    data.put("big", Long.MAX_VALUE);
    data.put("z", 1);
    data.put("a", "zeit \u23f0 \ud83d\udd70 \"quoted\"\nnewline\u0000nul");
    log.add(new SessionEvent(3, "assistant/message", 5, data, Optional.of(SurfaceOp.APPEND), List.of(1L, 2L)));
    log.add(new SessionEvent(4, "compaction", 6, Json.parse("{}"), Optional.of(new SurfaceOp.Replace(0, 2)), List.of(0L, 1L, 2L)));
    persist(header, log.subList(0, 2));
    persist(header, log);
    assertThat(store().load("s1")).contains(new StoredSession(header, log));
    StoredSession stored = reopen().load("s1").orElseThrow();
    assertThat(stored.header()).isEqualTo(header);
    assertThat(stored.events()).isEqualTo(log);
    // member order and number spelling survive
    assertThat(Json.write(stored.events().get(3).data())).isEqualTo(Json.write(data));
    assertThat(store().ids()).containsExactly("s1");
  }

  @Test
  void everyHeaderMemberSurvives() {
    SessionHeader full = new SessionHeader(
        1, "full", 42, Optional.of("/work"), Optional.of("root"), 1, Optional.of("subagent"),
        OptionalInt.of(2), Optional.of("preset-a"), Optional.empty());
    persist(full, log(1));
    assertThat(reopen().load("full").orElseThrow().header()).isEqualTo(full);
  }

  @Test
  void anEmptySessionIsStoredAndListed() {
    persist(header("empty"), List.of());
    assertThat(reopen().ids()).containsExactly("empty");
    assertThat(store().load("empty")).contains(new StoredSession(header("empty"), List.of()));
  }

  @Test
  void aMissingSessionLoadsEmpty() {
    assertThat(store().load("nobody")).isEmpty();
    assertThat(store().ids()).isEmpty();
  }

  @Test
  void aForkIsStoredWithItsSeed() {
    SessionHeader parent = header("parent");
    List<SessionEvent> parentLog = log(4);
    SessionHeader child = parent.forkChild("child", 1_800_000_000_000L, 3);
    List<SessionEvent> childLog = new ArrayList<>(parentLog.subList(0, 3));
    childLog.add(SessionEvent.of(3, "session/end-seed", 9, Json.parse("{}")));
    persist(parent, parentLog);
    persist(child, childLog);
    StoredSession stored = reopen().load("child").orElseThrow();
    assertThat(stored.header().parentSession()).contains("parent");
    assertThat(stored.header().seedLength()).isEqualTo(3);
    assertThat(stored.header().timeZone()).contains("Europe/Berlin");
    assertThat(stored.events()).isEqualTo(childLog);
    assertThat(store().ids()).containsExactlyInAnyOrder("parent", "child");
  }

  @Test
  void aForkWithoutItsSeedIsRefused() {
    SessionHeader child = header("parent").forkChild("child", 1, 3);
    assertThat(store().persist(child, log(2)).toCompletableFuture())
        .failsWithin(Duration.ZERO)
        .withThrowableThat()
        .withCauseInstanceOf(IllegalArgumentException.class)
        .withMessageContaining("log of session child holds 2 events, fewer than its seedLength 3");
    assertThat(store().ids()).isEmpty();
  }

  @Test
  void persistingAnUnchangedLogAgainIsHarmless() {
    persist(header("s"), log(2));
    persist(header("s"), log(2));
    persist(header("s"), log(2));
    assertThat(reopen().load("s").orElseThrow().events()).isEqualTo(log(2));
  }

  @Test
  void aStaleShorterSnapshotIsAlreadyStored() {
    persist(header("s"), log(3));
    persist(header("s"), log(2));
    persist(header("s"), List.of());
    assertThat(reopen().load("s").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aLogWithSeqGapsIsRefused() {
    assertThatThrownBy(() -> persist(header("s"), List.of(event(0), event(2))))
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("log is not contiguous from seq 0: position 1 holds seq 2");
    assertThatThrownBy(() -> persist(header("t"), List.of(event(1))))
        .hasMessageContaining("position 0 holds seq 1");
    persist(header("u"), log(3));
    List<SessionEvent> later = new ArrayList<>(log(5));
    later.set(4, event(7));
    assertThatThrownBy(() -> persist(header("u"), later))
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 4 holds seq 7");
    assertThat(reopen().load("u").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aDivergingLogIsRefusedAndAddsNothing() {
    persist(header("s"), log(3));
    List<SessionEvent> other = new ArrayList<>(log(4));
    other.set(2, SessionEvent.of(2, "other/type", 7, Json.parse("{}")));
    assertThatThrownBy(() -> persist(header("s"), other))
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not continue the stored log: seq 2 is stored as test/event@1700000000002"
            + " but given as other/type@7");
    assertThat(reopen().load("s").orElseThrow().events()).isEqualTo(log(3));
  }

  @Test
  void aLogThatDiffersOnlyInTheLastStoredPayloadIsRefused() {
    persist(header("s"), log(3));
    List<SessionEvent> other = new ArrayList<>(log(4));
    other.set(2, SessionEvent.of(2, "test/event", 1_700_000_000_002L, Json.parse("{\"n\":2,\"text\":\"forked\"}")));
    assertThatThrownBy(() -> persist(header("s"), other))
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not continue the stored log: seq 2");
    // the same event with other JSON node types (long instead of int) is the same event
    List<SessionEvent> same = new ArrayList<>(log(4));
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("n", 2L);
    data.put("text", "event 2");
    same.set(2, SessionEvent.of(2, "test/event", 1_700_000_000_002L, data));
    persist(header("s"), same);
    assertThat(reopen().load("s").orElseThrow().events()).isEqualTo(log(4));
  }

  @Test
  void aChangedHeaderIsRefused() {
    persist(header("s"), log(1));
    SessionHeader moved = SessionHeader.root("s", 1_700_000_000_000L, Optional.of("Asia/Tokyo"));
    assertThatThrownBy(() -> persist(moved, log(2)))
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("header of session s differs from the stored one");
    assertThat(reopen().load("s").orElseThrow().events()).isEqualTo(log(1));
  }

  @Test
  void concurrentPersistsOfOneSessionLandOnceEach() throws Exception {
    List<SessionEvent> full = log(120);
    List<Integer> sizes = new ArrayList<>();
    for (int n = 1; n <= full.size(); n++) {
      sizes.add(n);
    }
    Collections.shuffle(sizes, new Random(11));
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<CompletableFuture<Void>> all = new ArrayList<>();
      for (int n : sizes) {
        all.add(CompletableFuture.runAsync(() -> persist(header("busy"), full.subList(0, n)), pool));
      }
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertThat(reopen().load("busy").orElseThrow().events()).isEqualTo(full);
  }
}
