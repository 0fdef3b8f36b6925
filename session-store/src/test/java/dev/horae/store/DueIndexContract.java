package dev.horae.store;

import static dev.horae.store.Logs.failure;
import static dev.horae.store.Logs.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The due index's rules for every store (docs/persistence.md, "The due index"): the entry moves in
 * the same persist as the events that move it, a refused or stale persist moves nothing, and the
 * index answers due sessions earliest first.
 */
abstract class DueIndexContract {

  /** A store opened with {@link Reminders#INDEXER}. */
  abstract DueIndexed store();

  /** Leases of {@code owner} on {@link #store()}. */
  abstract SessionLeases leases(String owner);

  /** Whether the store refuses a log that does not continue the stored one (the memory store does not check). */
  boolean checksContinuation() {
    return true;
  }

  DueIndex index() {
    return store().dueIndex().orElseThrow();
  }

  void persist(SessionHeader h, List<SessionEvent> log) {
    store().persist(h, log).toCompletableFuture().join();
  }

  @Test
  void theEntryFollowsTheEarliestActiveReminderThroughCreateDeleteAndDispatch() {
    SessionHeader h = header("s");
    Reminders.Log log = new Reminders.Log().other();
    persist(h, log.events());
    assertThat(index().dueAt("s")).isEmpty();

    persist(h, log.create("late", 5_000).events());
    assertThat(index().dueAt("s")).hasValue(5_000);
    persist(h, log.create("early", 2_000).other().events());
    assertThat(index().dueAt("s")).hasValue(2_000);
    // deleting the earliest moves the entry to the next one
    persist(h, log.end("early").events());
    assertThat(index().dueAt("s")).hasValue(5_000);
    // dispatching the last clears it
    persist(h, log.other().end("late").events());
    assertThat(index().dueAt("s")).isEmpty();
    assertThat(index().dueBy(Long.MAX_VALUE, 10)).isEmpty();
    assertThat(index().earliest()).isEmpty();
  }

  @Test
  void dueSessionsComeEarliestFirstAndOnlyOnceDue() {
    persist(header("b"), new Reminders.Log().create("r", 3_000).events());
    persist(header("a"), new Reminders.Log().create("r", 3_000).events());
    persist(header("c"), new Reminders.Log().create("r", 1_000).events());
    persist(header("d"), new Reminders.Log().create("r", 9_000).events());

    assertThat(index().dueBy(999, 10)).isEmpty();
    assertThat(index().dueBy(3_000, 10))
        .containsExactly(new DueEntry("c", 1_000), new DueEntry("a", 3_000), new DueEntry("b", 3_000));
    assertThat(index().dueBy(3_000, 2)).extracting(DueEntry::sessionId).containsExactly("c", "a");
    assertThat(index().earliest()).hasValue(1_000);
  }

  @Test
  void aRefusedPersistMovesNothing() {
    SessionHeader h = header("s");
    Reminders.Log log = new Reminders.Log().create("r", 4_000);
    persist(h, log.events());

    if (checksContinuation()) {
      // a log that does not continue the stored one is refused, and its create indexes nothing
      Reminders.Log other = new Reminders.Log().create("x", 1_000).create("y", 500);
      assertThat(failure(store().persist(h, other.events()))).isInstanceOf(IllegalArgumentException.class);
      assertThat(index().dueAt("s")).hasValue(4_000);
    }

    // a leased session refuses a write without its lease
    SessionLease lease = leases("node-a").acquire("s");
    List<SessionEvent> grown = log.create("sooner", 1_000).events();
    assertThat(failure(store().persist(h, grown))).isInstanceOf(SessionLeaseException.class);
    assertThat(index().dueAt("s")).hasValue(4_000);

    // the same events under the lease land, and only now move the entry: the refused persist left
    // no tracker that had seen them
    leases("node-a").persist(h, grown, lease).toCompletableFuture().join();
    assertThat(index().dueAt("s")).hasValue(1_000);
    assertThat(leases("node-a").release(lease)).isTrue();
  }

  @Test
  void anOlderSnapshotMovesNothing() {
    SessionHeader h = header("s");
    Reminders.Log log = new Reminders.Log().create("r", 4_000);
    List<SessionEvent> older = log.events();
    persist(h, log.end("r").events());
    assertThat(index().dueAt("s")).isEmpty();

    persist(h, older);
    assertThat(index().dueAt("s")).isEmpty();
  }

  @Test
  void aPersistFeedsTheTrackerOnlyTheEventsItAdds() {
    SessionHeader h = header("s");
    Reminders.Log log = new Reminders.Log();
    for (int i = 0; i < 20; i++) {
      log.other();
    }
    persist(h, log.events());
    int before = Reminders.FED.get();
    persist(h, log.create("r", 7_000).events());
    assertThat(Reminders.FED.get() - before).isEqualTo(1);
    assertThat(index().dueAt("s")).hasValue(7_000);
  }

  @Test
  void aClaimAcquiresDueSessionsForItsOwnerAndPassesOverHeldAndSkippedOnes() {
    for (String id : List.of("a", "b", "c", "d")) {
      persist(header(id), new Reminders.Log().create("r", 1_000).events());
    }
    SessionLease heldByB = leases("node-b").acquire("b");

    List<SessionLease> claimed = index().claim(leases("node-a"), 2_000, 10, Set.of("c"));
    assertThat(claimed).extracting(SessionLease::sessionId).containsExactly("a", "d");
    assertThat(claimed).allSatisfy(l -> assertThat(l.owner()).isEqualTo("node-a"));
    // a second claimer finds nothing left to take
    assertThat(index().claim(leases("node-c"), 2_000, 10, Set.of())).extracting(SessionLease::sessionId)
        .containsExactly("c");
    List<SessionLease> none = new ArrayList<>(index().claim(leases("node-d"), 2_000, 10, Set.of()));
    assertThat(none).isEmpty();
    assertThat(leases("node-b").release(heldByB)).isTrue();
  }

  @Test
  void aClaimTakesAtMostItsLimitEarliestFirst() {
    persist(header("late"), new Reminders.Log().create("r", 1_500).events());
    persist(header("early"), new Reminders.Log().create("r", 1_000).events());
    persist(header("mid"), new Reminders.Log().create("r", 1_200).events());
    assertThat(index().claim(leases("node-a"), 2_000, 0, Set.of())).isEmpty();
    assertThat(index().claim(leases("node-a"), 2_000, 2, Set.of())).extracting(SessionLease::sessionId)
        .containsExactly("early", "mid");
    assertThat(index().claim(leases("node-b"), 2_000, 2, Set.of())).extracting(SessionLease::sessionId)
        .containsExactly("late");
  }

  @Test
  void aDueTimeBeyondAnyClockIsKept() {
    persist(header("s"), new Reminders.Log().create("r", 253_402_300_799_999L).events());
    assertThat(index().dueAt("s")).isEqualTo(OptionalLong.of(253_402_300_799_999L));
    assertThat(index().dueBy(253_402_300_799_998L, 1)).isEmpty();
  }
}
