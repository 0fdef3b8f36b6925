package dev.horae.store;

import static dev.horae.store.Logs.event;
import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.session.SurfaceOp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSessionStoreTest {

  @TempDir Path root;

  @Test
  void roundTripsHeaderAndEventsAcrossReopen() throws Exception {
    SessionHeader header = header("s1");
    List<SessionEvent> log = new ArrayList<>(log(3));
    ObjectNode data = Json.mapper().createObjectNode();
    data.set("price", Json.parse("30.0"));
    data.put("big", Long.MAX_VALUE);
    data.put("unicode", "zeit \u23f0 — \ud83d\udd70 \"quoted\"\nnewline");
    log.add(new SessionEvent(3, "assistant/message", 5, data, Optional.of(SurfaceOp.APPEND), List.of(1L, 2L)));
    log.add(new SessionEvent(4, "compaction", 6, Json.parse("{}"), Optional.of(new SurfaceOp.Replace(0, 2)), List.of(0L, 1L, 2L)));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header, log.subList(0, 2));
      persist(store, header, log);
      assertThat(store.load("s1")).contains(new StoredSession(header, log));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      StoredSession stored = store.load("s1").orElseThrow();
      assertThat(stored.header()).isEqualTo(header);
      assertThat(stored.events()).hasSize(5);
      assertThat(stored.events().get(3).data().get("price").toString()).isEqualTo("30.0");
      assertThat(stored.events().get(3).data()).isEqualTo(data);
      assertThat(stored.events()).isEqualTo(log);
      assertThat(store.ids()).containsExactly("s1");
    }
    assertThat(Logs.lines(Logs.eventsFile(root, "s1"))).hasSize(2);
  }

  @Test
  void anEmptySessionIsStoredAndListed() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("empty"), List.of());
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.ids()).containsExactly("empty");
      assertThat(store.load("empty")).contains(new StoredSession(header("empty"), List.of()));
    }
  }

  @Test
  void aMissingSessionLoadsEmptyAndCreatesNothing() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("nobody")).isEmpty();
      assertThat(store.ids()).isEmpty();
    }
    try (var entries = Files.list(root)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void aForkIsStoredWithItsSeed() {
    SessionHeader parent = header("parent");
    List<SessionEvent> parentLog = log(4);
    SessionHeader child = parent.forkChild("child", 1_800_000_000_000L, 3);
    List<SessionEvent> childLog = new ArrayList<>(parentLog.subList(0, 3));
    childLog.add(SessionEvent.of(3, "session/end-seed", 9, Json.parse("{}")));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, parent, parentLog);
      persist(store, child, childLog);
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      StoredSession stored = store.load("child").orElseThrow();
      assertThat(stored.header().parentSession()).contains("parent");
      assertThat(stored.header().seedLength()).isEqualTo(3);
      assertThat(stored.header().timeZone()).contains("Europe/Berlin");
      assertThat(stored.events()).isEqualTo(childLog);
      assertThat(store.ids()).containsExactlyInAnyOrder("parent", "child");
    }
  }

  @Test
  void aForkWithoutItsSeedIsRefused() {
    SessionHeader child = header("parent").forkChild("child", 1, 3);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.persist(child, log(2)).toCompletableFuture())
          .failsWithin(java.time.Duration.ZERO)
          .withThrowableThat()
          .withCauseInstanceOf(IllegalArgumentException.class)
          .withMessageContaining("log of session child holds 2 events, fewer than its seedLength 3");
      assertThat(store.ids()).isEmpty();
    }
  }

  @Test
  void allHeaderMembersSurvive() {
    SessionHeader full = new SessionHeader(
        1, "full", 42, Optional.of("/work"), Optional.of("root"), 0, Optional.of("subagent"),
        OptionalInt.of(2), Optional.of("preset-a"), Optional.empty());
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, full, log(1));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("full").orElseThrow().header()).isEqualTo(full);
    }
  }

  @Test
  void idsThatAreNotFileNamesRoundTrip() {
    List<String> ids = List.of("../escape", "a/b\\c", ".hidden", "Zeit:Sitzung ü", "x".repeat(80));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      for (String id : ids) {
        persist(store, header(id), log(1));
      }
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.ids()).containsExactlyInAnyOrderElementsOf(ids);
      for (String id : ids) {
        assertThat(store.load(id).orElseThrow().header().id()).isEqualTo(id);
      }
    }
    assertThat(root.resolveSibling("escape")).doesNotExist();
  }

  @Test
  void persistingAnUnchangedLogAgainWritesNothing() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      long size = Files.size(Logs.eventsFile(root, "s"));
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(2));
      assertThat(Files.size(Logs.eventsFile(root, "s"))).isEqualTo(size);
    }
  }

  @Test
  void aLogWithSeqGapsIsRefused() {
    List<SessionEvent> gappy = List.of(event(0), event(2));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> persist(store, header("s"), gappy))
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("log is not contiguous from seq 0: position 1 holds seq 2");
      assertThatThrownBy(() -> persist(store, header("t"), List.of(event(1))))
          .hasMessageContaining("position 0 holds seq 1");
      persist(store, header("u"), log(3));
      List<SessionEvent> later = new ArrayList<>(log(5));
      later.set(4, event(7));
      assertThatThrownBy(() -> persist(store, header("u"), later))
          .hasCauseInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("position 4 holds seq 7");
      assertThat(store.load("u").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void aStaleShorterSnapshotIsAlreadyStored() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(3));
      long size = Files.size(Logs.eventsFile(root, "s"));
      persist(store, header("s"), log(2));
      assertThat(Files.size(Logs.eventsFile(root, "s"))).isEqualTo(size);
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void aDivergingLogIsRefused() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(3));
      List<SessionEvent> other = new ArrayList<>(log(4));
      other.set(2, SessionEvent.of(2, "other/type", 7, Json.parse("{}")));
      assertThatThrownBy(() -> persist(store, header("s"), other))
          .hasCauseInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not continue the stored log: seq 2 is stored as test/event@1700000000002"
              + " but given as other/type@7");
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void aChangedHeaderIsRefused() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(1));
      SessionHeader moved = SessionHeader.root("s", 1_700_000_000_000L, Optional.of("Asia/Tokyo"));
      assertThatThrownBy(() -> persist(store, moved, log(2)))
          .hasCauseInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("header of session s differs from the stored one");
    }
  }

  @Test
  void aClosedStoreRefusesWork() {
    FileSessionStore store = FileSessionStore.open(root);
    persist(store, header("s"), log(1));
    store.close();
    assertThatThrownBy(() -> store.load("s"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessageContaining("is closed");
    assertThat(store.persist(header("s"), log(2)).toCompletableFuture()).isCompletedExceptionally();
  }

  @Test
  void aFolderWithoutHeaderHoldsOnlyAnUnacknowledgedFirstFlush() throws Exception {
    Path dir = Files.createDirectories(root.resolve("ghost"));
    Files.writeString(dir.resolve("events.log"), "deadbeef [half a flush");
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.ids()).isEmpty();
      assertThat(store.load("ghost")).isEmpty();
      persist(store, header("ghost"), log(2));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("ghost").orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void aCorruptHeaderFailsNamingTheFile() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(1));
    }
    Files.writeString(root.resolve("s").resolve("header.json"), "{\"version\":1}");
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOf(SessionStoreException.class)
          .hasMessageContaining("session header " + root.resolve("s").resolve("header.json") + " is corrupt");
    }
  }

  @Test
  void syncNeverStillStoresEverything() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(5));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5));
    }
  }
}
