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
  void aStoreWithoutAnIndexerHasNoIndex() {
    assertThat(new MemorySessionStore().dueIndex()).isEmpty();
  }
}
