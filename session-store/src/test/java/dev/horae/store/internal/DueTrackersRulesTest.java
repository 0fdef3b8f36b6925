package dev.horae.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.DueIndexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The tracker cache every store's due index goes through (docs/persistence.md, "How the index
 * moves"): a persist feeds its session's tracker only the events it adds, a tracker serves the next
 * persist only once its own persist landed ({@code commit}), a log that is not a continuation starts
 * a fresh tracker from seq 0, the least recently used trackers beyond the capacity are dropped, and
 * an indexer that cannot read a log indexes the session as not due.
 */
class DueTrackersRulesTest {

  /** Every {@code track} call and every batch of events fed, in order: "track s", "s +2". */
  private final List<String> calls = new ArrayList<>();

  /**
   * A session is due at the {@code at} of its latest event that has one (absent when none has): a
   * tracker that missed events would answer from an older one.
   */
  private final DueIndexer indexer = header -> {
    calls.add("track " + header.id());
    long[] latest = {-1};
    return events -> {
      calls.add(header.id() + " +" + events.size());
      for (SessionEvent e : events) {
        if (e.data().has("at")) {
          latest[0] = e.data().get("at").asLong();
        }
      }
      return latest[0] < 0 ? OptionalLong.empty() : OptionalLong.of(latest[0]);
    };
  };

  private static SessionHeader header(String id) {
    return SessionHeader.root(id, 1_700_000_000_000L, Optional.empty());
  }

  /** A log of {@code size} events; event {@code i} carries {@code at} = 1000 × (i + 1) when {@code timed}. */
  private static List<SessionEvent> log(int size, boolean timed) {
    List<SessionEvent> log = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ObjectNode d = Json.mapper().createObjectNode();
      if (timed) {
        d.put("at", 1_000L * (i + 1));
      }
      log.add(SessionEvent.of(i, "test/event", 1_700_000_000_000L + i, d));
    }
    return List.copyOf(log);
  }

  private static List<SessionEvent> log(int size) {
    return log(size, true);
  }

  @Test
  void aCommittedTrackerIsFedOnlyTheEventsTheNextPersistAdds() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    DueTrackers.Advance first = trackers.advance(header("s"), log(2));
    assertThat(first.length()).isEqualTo(2);
    assertThat(first.due()).hasValue(2_000);
    trackers.commit(first);

    DueTrackers.Advance next = trackers.advance(header("s"), log(5));
    assertThat(next.length()).isEqualTo(5);
    assertThat(next.due()).hasValue(5_000);
    assertThat(calls).containsExactly("track s", "s +2", "s +3");
  }

  @Test
  void anUncommittedAdvanceLeavesNoTrackerBehindSoTheNextPersistStartsFromSeqZero() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(2)));
    // a persist whose transaction is refused: its advance is never committed
    var refused = trackers.advance(header("s"), log(4));
    assertThat(refused.due()).hasValue(4_000);

    DueTrackers.Advance retried = trackers.advance(header("s"), log(3));
    assertThat(retried.due()).hasValue(3_000);
    assertThat(calls).containsExactly("track s", "s +2", "s +2", "track s", "s +3");
  }

  @Test
  void aLogShorterThanTheTrackerHasSeenIsReadByAFreshTracker() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(4)));
    DueTrackers.Advance shorter = trackers.advance(header("s"), log(2));
    assertThat(shorter.length()).isEqualTo(2);
    assertThat(shorter.due()).hasValue(2_000);
    assertThat(calls).containsExactly("track s", "s +4", "track s", "s +2");
  }

  @Test
  void aLogOfTheLengthAlreadySeenFeedsNothingAndKeepsTheAnswer() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(3)));
    DueTrackers.Advance same = trackers.advance(header("s"), log(3));
    assertThat(same.length()).isEqualTo(3);
    assertThat(same.due()).hasValue(3_000);
    trackers.commit(same);
    // the kept tracker still serves the persist after that
    assertThat(trackers.advance(header("s"), log(4)).due()).hasValue(4_000);
    assertThat(calls).containsExactly("track s", "s +3", "s +1");
  }

  @Test
  void anEmptyLogIsNotDueAndFeedsNothing() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    DueTrackers.Advance empty = trackers.advance(header("s"), List.of());
    assertThat(empty.length()).isZero();
    assertThat(empty.due()).isEmpty();
    assertThat(calls).containsExactly("track s");
  }

  @Test
  void theCacheKeepsAsManySessionsAsItsCapacityAndDropsTheLeastRecentlyUsed() {
    DueTrackers trackers = new DueTrackers(indexer, 2);
    trackers.commit(trackers.advance(header("a"), log(1)));
    trackers.commit(trackers.advance(header("b"), log(1)));
    // both fit: each continues its tracker
    trackers.commit(trackers.advance(header("a"), log(2)));
    trackers.commit(trackers.advance(header("b"), log(2)));
    assertThat(calls).containsExactly("track a", "a +1", "track b", "b +1", "a +1", "b +1");

    calls.clear();
    // a third session drops a, the one used longest ago; b stays
    trackers.commit(trackers.advance(header("c"), log(1)));
    trackers.commit(trackers.advance(header("b"), log(3)));
    trackers.commit(trackers.advance(header("a"), log(3)));
    assertThat(calls).containsExactly("track c", "c +1", "b +1", "track a", "a +3");
  }

  @Test
  void aCacheHoldsAtLeastOneSession() {
    assertThatThrownBy(() -> new DueTrackers(indexer, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a tracker cache holds at least one session, got 0");
    DueTrackers one = new DueTrackers(indexer, 1);
    one.commit(one.advance(header("s"), log(1)));
    assertThat(one.advance(header("s"), log(2)).due()).hasValue(2_000);
    assertThat(calls).containsExactly("track s", "s +1", "s +1");
  }

  @Test
  void aTrackerThatThrowsIndexesTheSessionAsNotDueFromThenOn() {
    DueIndexer broken = header -> {
      calls.add("track " + header.id());
      return events -> {
        calls.add(header.id() + " +" + events.size());
        throw new IllegalStateException("corrupt schedule log");
      };
    };
    DueTrackers trackers = new DueTrackers(broken, 4);
    DueTrackers.Advance failed = trackers.advance(header("s"), log(2));
    assertThat(failed.due()).isEmpty();
    assertThat(failed.length()).isEqualTo(2);
    trackers.commit(failed);
    // the failed tracker is not asked again: nothing in an unreadable log can come due
    DueTrackers.Advance later = trackers.advance(header("s"), log(5));
    assertThat(later.due()).isEmpty();
    assertThat(later.length()).isEqualTo(5);
    assertThat(calls).containsExactly("track s", "s +2");
  }

  @Test
  void aTrackerThatAnswersNullCountsAsOneThatCannotReadTheLog() {
    DueTrackers trackers = new DueTrackers(header -> events -> null, 4);
    DueTrackers.Advance a = trackers.advance(header("s"), log(2));
    assertThat(a.due()).isEmpty();
    assertThat(a.length()).isEqualTo(2);
  }

  @Test
  void computeReadsTheWholeLogWithAFreshTrackerAndCachesIt() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(2)));
    // a log replaced wholesale: the cached tracker's events are not a prefix of it
    assertThat(trackers.compute(header("s"), log(3, false))).isEmpty();
    assertThat(trackers.advance(header("s"), log(4)).due()).hasValue(4_000);
    assertThat(calls).containsExactly("track s", "s +2", "track s", "s +3", "s +1");
  }

  @Test
  void aForgottenSessionStartsAgainFromSeqZero() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(2)));
    trackers.forget("s");
    assertThat(trackers.advance(header("s"), log(3)).due()).hasValue(3_000);
    assertThat(calls).containsExactly("track s", "s +2", "track s", "s +3");
  }

  @Test
  void detachedTrackersShareTheIndexerButNotTheCache() {
    DueTrackers trackers = new DueTrackers(indexer, 4);
    trackers.commit(trackers.advance(header("s"), log(2)));
    DueTrackers once = trackers.detached();
    once.commit(once.advance(header("s"), log(3)));
    // the store's cached tracker is untouched by the detached computation
    assertThat(trackers.advance(header("s"), log(4)).due()).hasValue(4_000);
    assertThat(calls).containsExactly("track s", "s +2", "track s", "s +3", "s +2");

    calls.clear();
    // a detached cache keeps one session
    once.commit(once.advance(header("t"), log(1)));
    assertThat(once.advance(header("s"), log(4)).due()).hasValue(4_000);
    assertThat(calls).containsExactly("track t", "t +1", "track s", "s +4");
  }
}
