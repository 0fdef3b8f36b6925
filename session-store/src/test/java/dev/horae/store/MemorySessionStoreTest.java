package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The in-process store: deep copies in and out (no JSON tree shared with a live log or a caller),
 * a copy never rolled back by a shorter one, and the unconditional seeding of {@code put}.
 */
class MemorySessionStoreTest {

  private final MemorySessionStore store = new MemorySessionStore();

  private void persist(SessionHeader header, List<SessionEvent> log) {
    store.persist(header, log).toCompletableFuture().join();
  }

  private static List<SessionEvent> mutableLog(int size) {
    List<SessionEvent> out = new ArrayList<>();
    for (SessionEvent e : log(size)) {
      out.add(new SessionEvent(e.seq(), e.type(), e.time(), e.data(), e.surfaceOp(), e.sourceEventSeqs()));
    }
    return out;
  }

  @Test
  void keepsADeepCopyOfWhatItIsGivenAndHandsOutCopies() {
    List<SessionEvent> live = mutableLog(2);
    persist(header("s"), live);
    ((ObjectNode) live.get(0).data()).put("text", "changed by the caller");
    StoredSession loaded = store.load("s").orElseThrow();
    assertThat(loaded).isEqualTo(new StoredSession(header("s"), log(2)));
    ((ObjectNode) loaded.events().get(1).data()).put("text", "changed by a reader");
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(2));
    assertThat(store.ids()).containsExactly("s");
    assertThat(store.contains("s")).isTrue();
    assertThat(store.contains("t")).isFalse();
    assertThat(store.load("other")).isEmpty();
  }

  @Test
  void aGrowingLogKeepsItsStoredPrefixAndAddsOnlyTheNewEvents() {
    List<SessionEvent> live = new ArrayList<>(mutableLog(5));
    persist(header("s"), live.subList(0, 2));
    // a log given again with a different event in the kept prefix: the prefix is not read again
    SessionEvent other = live.get(1);
    live.set(1, new SessionEvent(other.seq(), other.type(), other.time(), Json.parse("{\"text\":\"edited after its flush\"}"),
        other.surfaceOp(), other.sourceEventSeqs()));
    persist(header("s"), live);
    List<SessionEvent> stored = store.load("s").orElseThrow().events();
    assertThat(stored).hasSize(5).isEqualTo(log(5));
    // an event is immutable: a reader's change to its payload tree reaches no one
    ((ObjectNode) live.get(4).data()).put("text", "edited after the second flush");
    assertThat(store.load("s").orElseThrow().events().get(4)).isEqualTo(log(5).get(4));
  }

  @Test
  void aShorterCopyNeverRollsBackALongerOne() {
    persist(header("s"), log(3));
    persist(header("s"), log(2));
    persist(header("s"), log(3));
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    store.keep(new StoredSession(header("s"), log(1)));
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    store.keep(new StoredSession(header("s"), log(4)));
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(4));
    store.keep(new StoredSession(header("s"), log(4).subList(0, 4)));
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(4));
  }

  @Test
  void aNewHeaderReplacesTheCopyUnlessItIsShorter() {
    persist(header("s"), log(2));
    SessionHeader moved = SessionHeader.root("s", 5, Optional.of("Asia/Tokyo"));
    persist(moved, log(2));
    assertThat(store.load("s").orElseThrow()).isEqualTo(new StoredSession(moved, log(2)));
    persist(header("s"), log(1));
    assertThat(store.load("s").orElseThrow().header()).isEqualTo(moved);
  }

  @Test
  void putReplacesUnconditionallyWithACopy() {
    persist(header("s"), log(4));
    List<SessionEvent> seed = mutableLog(1);
    store.put(new StoredSession(header("s"), seed));
    ((ObjectNode) seed.get(0).data()).put("text", "changed");
    assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(1));
  }

  @Test
  void copyOfIsADeepCopy() {
    List<SessionEvent> live = mutableLog(2);
    List<SessionEvent> copy = MemorySessionStore.copyOf(live);
    ((ObjectNode) live.get(0).data()).put("text", "changed");
    assertThat(copy).isEqualTo(log(2));
  }
}
