package dev.horae.store;

import java.time.Duration;
import java.time.InstantSource;

/** The fenced-lease contract on the in-memory store, several owners sharing one store. */
class MemorySessionLeasesTest extends SessionLeasesContract {

  private final MemorySessionStore store = new MemorySessionStore();

  @Override
  SessionLeases leases(String owner, Duration duration, InstantSource clock) {
    return store.leases(owner, duration, clock);
  }

  @Override
  long storedEvents(String id) {
    return store.load(id).map(s -> (long) s.events().size()).orElse(0L);
  }
}
