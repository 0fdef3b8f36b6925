package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link DueIndexer#earliestOf}: a session's due time is the earliest of its parts', each part
 * tracking its own events incrementally, and a store given the composition indexes it so.
 */
class DueIndexerEarliestOfTest {

  private static final SessionHeader HEADER = SessionHeader.root("s", 0, Optional.empty());

  /** Due at the {@code at} of its last {@code <type>} event, empty for a null {@code at}; records every batch. */
  private static DueIndexer part(String type, List<Integer> batches) {
    return header -> {
      OptionalLong[] due = {OptionalLong.empty()};
      return events -> {
        batches.add(events.size());
        for (SessionEvent e : events) {
          if (e.type().equals(type)) {
            due[0] = e.data().get("at").isNull() ? OptionalLong.empty() : OptionalLong.of(e.data().get("at").asLong());
          }
        }
        return due[0];
      };
    };
  }

  private static SessionEvent event(long seq, String type, long at) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("at", at);
    return SessionEvent.of(seq, type, 0, data);
  }

  /** An event that makes its part not due. */
  private static SessionEvent cleared(long seq, String type) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.putNull("at");
    return SessionEvent.of(seq, type, 0, data);
  }

  @Test
  void theTrackerAnswersTheEarliestPartAndFeedsEveryPartEveryBatch() {
    List<Integer> a = Collections.synchronizedList(new ArrayList<>());
    List<Integer> b = Collections.synchronizedList(new ArrayList<>());
    Function<List<SessionEvent>, OptionalLong> tracker = DueIndexer.earliestOf(part("a", a), part("b", b)).track(HEADER);

    assertThat(tracker.apply(List.of(event(0, "other", 1)))).isEmpty();
    assertThat(tracker.apply(List.of(event(1, "b", 500)))).hasValue(500);
    assertThat(tracker.apply(List.of(event(2, "a", 700), event(3, "x", 1)))).hasValue(500);
    assertThat(tracker.apply(List.of(event(4, "a", 200)))).hasValue(200);
    // the earlier part is done: the other one's time is the session's again
    assertThat(tracker.apply(List.of(cleared(5, "a")))).hasValue(500);
    assertThat(tracker.apply(List.of(cleared(6, "b")))).isEmpty();
    assertThat(a).containsExactly(1, 1, 2, 1, 1, 1);
    assertThat(b).containsExactly(1, 1, 2, 1, 1, 1);
  }

  @Test
  void eachSessionGetsFreshTrackersOfEveryPart() {
    List<Integer> seen = new ArrayList<>();
    DueIndexer both = DueIndexer.earliestOf(part("a", seen), part("b", seen));
    Function<List<SessionEvent>, OptionalLong> first = both.track(HEADER);
    assertThat(first.apply(List.of(event(0, "a", 10)))).hasValue(10);
    Function<List<SessionEvent>, OptionalLong> second = both.track(SessionHeader.root("t", 0, Optional.empty()));
    assertThat(second.apply(List.of(event(0, "b", 30)))).hasValue(30);
    assertThat(first.apply(List.of())).hasValue(10);
  }

  @Test
  void aPartThatThrowsMakesTheTrackerThrowAndNoPartsAreRefused() {
    DueIndexer broken = header -> events -> {
      throw new IllegalStateException("corrupt log");
    };
    Function<List<SessionEvent>, OptionalLong> tracker = DueIndexer.earliestOf(part("a", new ArrayList<>()), broken).track(HEADER);
    assertThatThrownBy(() -> tracker.apply(List.of(event(0, "a", 5)))).isInstanceOf(IllegalStateException.class)
        .hasMessage("corrupt log");
    assertThatThrownBy(DueIndexer::earliestOf).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("earliestOf needs at least one indexer");
  }

  @Test
  void aStoreGivenTheCompositionIndexesTheEarliestPart() {
    MemorySessionStore store = new MemorySessionStore(
        DueIndexer.earliestOf(part("a", new ArrayList<>()), part("b", new ArrayList<>())));
    store.persist(HEADER, List.of(event(0, "b", 900), event(1, "a", 400))).toCompletableFuture().join();
    DueIndex index = store.dueIndex().orElseThrow();
    assertThat(index.dueAt("s")).hasValue(400);
    store.persist(HEADER, List.of(event(0, "b", 900), event(1, "a", 400), cleared(2, "a"))).toCompletableFuture().join();
    assertThat(index.dueAt("s")).hasValue(900);
  }
}
