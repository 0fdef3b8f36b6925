package dev.horae.store;

import static dev.horae.store.Logs.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The due index of the in-memory store: moved under the store's lock by every persist. */
class MemoryDueIndexTest extends DueIndexContract {

  private final MemorySessionStore store = new MemorySessionStore(Reminders.INDEXER);
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));

  @Override
  DueIndexed store() {
    return store;
  }

  @Override
  SessionLeases leases(String owner) {
    return store.leases(owner, Duration.ofSeconds(30), clock);
  }

  @Override
  boolean checksContinuation() {
    return false;
  }

  @Test
  void aSeededLogIsIndexedWhole() {
    store.put(new StoredSession(header("s"), new Reminders.Log().create("a", 3_000).create("b", 2_000).events()));
    assertThat(index().dueAt("s")).hasValue(2_000);
    // a replacement is indexed from scratch, not as a continuation of the old log
    store.put(new StoredSession(header("s"), new Reminders.Log().create("c", 8_000).events()));
    assertThat(index().dueAt("s")).hasValue(8_000);
    assertThat(index().rebuild()).isZero();
  }

  @Test
  void aClaimReadsPastItsWindowWhenTheLimitAndTheSkippedSessionsNeedMore() {
    // every session is due; the window alone would stop at DueIndex.CLAIM_WINDOW of them
    int due = DueIndex.CLAIM_WINDOW + 10;
    for (int i = 0; i < due; i++) {
      persist(header(String.format("s%05d", i)), new Reminders.Log().create("r", 1_000 + i).events());
    }
    java.util.Set<String> skip = java.util.Set.of("s00000", "s00001", "s00002");
    java.util.List<SessionLease> claimed = index().claim(leases("node-a"), 1_000_000, DueIndex.CLAIM_WINDOW + 5, skip);
    assertThat(claimed).hasSize(DueIndex.CLAIM_WINDOW + 5);
    assertThat(claimed.get(0).sessionId()).isEqualTo("s00003");
    assertThat(claimed.get(claimed.size() - 1).sessionId()).isEqualTo(String.format("s%05d", DueIndex.CLAIM_WINDOW + 7));
  }

  @Test
  void aStoreWithoutAnIndexerHasNoIndex() {
    assertThat(new MemorySessionStore().dueIndex()).isEmpty();
  }
}
