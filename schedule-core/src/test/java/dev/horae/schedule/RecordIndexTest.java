package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.schedule.internal.RecordIndex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fold's record index (issue 19): after any sequence of creates and ends, its seen ids, its
 * creation order and its earliest record equal what the naive definitions give — the records in
 * insertion order, and a strict less-than scan over them, so ties keep creation order (spec §12.3
 * [S194, S214]) — whether the due order is asked for from the start or only late.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordIndexTest {

  private static final long T = 1_785_000_000_000L;

  /** The definition the heap must reproduce: a creation-order scan with strict less-than. */
  private static Optional<ScheduleRecord> scanEarliest(Map<String, ScheduleRecord> model) {
    ScheduleRecord best = null;
    for (ScheduleRecord r : model.values()) {
      if (best == null || r.scheduledAtMillis() < best.scheduledAtMillis()) {
        best = r;
      }
    }
    return Optional.ofNullable(best);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 19, 4242, 20260805})
  void earliestAndCreationOrderMatchTheNaiveDefinitionsAfterRandomChanges(long seed) {
    Random rnd = new Random(seed);
    RecordIndex set = new RecordIndex();
    // the due-order heap is built at the first earliest(): from the start, or after many changes
    int steps = PropertySteps.of(20_000);
    int firstAsk = rnd.nextBoolean() ? 0 : steps / 4;
    Map<String, ScheduleRecord> model = new LinkedHashMap<>();
    List<String> ids = new ArrayList<>();
    int order = 0;
    for (int step = 0; step < steps; step++) {
      if (model.isEmpty() || rnd.nextInt(10) < 6) {
        // few distinct targets, so ties are common
        String id = "schedule-" + (order + 1);
        ScheduleRecord r = new ScheduleRecord.At(id, "p", T + rnd.nextInt(50));
        set.create(r);
        order++;
        model.put(id, r);
        ids.add(id);
      } else {
        // end the earliest (a dispatch) or any active record (a delete)
        String id = rnd.nextBoolean()
            ? scanEarliest(model).orElseThrow().id()
            : ids.get(rnd.nextInt(ids.size()));
        assertThat(set.end(id)).isEqualTo(model.remove(id) != null);
        assertThat(set.seen(id)).isTrue();
        assertThat(set.isActive(id)).isFalse();
      }
      if (step >= firstAsk) {
        assertThat(set.earliest()).isEqualTo(scanEarliest(model));
      }
      assertThat(set.activeCount()).isEqualTo(model.size());
      assertThat(set.seenIds()).hasSize(order);
      if (step % 500 == 0) {
        assertThat(set.activeInCreationOrder()).containsExactlyElementsOf(model.values());
        RecordIndex copy = set.copy();
        assertThat(copy.activeInCreationOrder()).containsExactlyElementsOf(model.values());
        assertThat(copy.seenIds()).isEqualTo(set.seenIds());
        assertThat(copy.earliest()).isEqualTo(scanEarliest(model));
      }
    }
    // drain in due order: each removal of the earliest exposes the next one
    while (!model.isEmpty()) {
      ScheduleRecord next = scanEarliest(model).orElseThrow();
      assertThat(set.earliest()).contains(next);
      set.end(next.id());
      model.remove(next.id());
    }
    assertThat(set.earliest()).isEmpty();
    assertThat(set.activeCount()).isZero();
    assertThat(set.activeInCreationOrder()).isEmpty();
  }

  @Test
  void aCopyIsIndependentOfItsSource() {
    RecordIndex set = new RecordIndex();
    ScheduleRecord late = new ScheduleRecord.At("late", "p", T + 10);
    ScheduleRecord early = new ScheduleRecord.At("early", "p", T);
    set.create(late);
    set.create(early);
    assertThat(set.earliest()).contains(early);
    RecordIndex copy = set.copy();
    copy.end("early");
    copy.create(new ScheduleRecord.At("latest", "p", T + 20));
    assertThat(set.earliest()).contains(early);
    assertThat(set.activeInCreationOrder()).containsExactly(late, early);
    assertThat(copy.earliest()).contains(late);
    assertThat(copy.isActive("early")).isFalse();
    assertThat(copy.seen("early")).isTrue();
    assertThat(set.seen("latest")).isFalse();
    assertThat(copy.get("latest")).isPresent();
    assertThat(set.get("latest")).isEmpty();
  }

  @Test
  void aSeenIdCannotBeCreatedAgainAndAnInactiveOneIsNotEnded() {
    RecordIndex set = new RecordIndex();
    set.create(new ScheduleRecord.At("a", "p", T));
    assertThatThrownBy(() -> set.create(new ScheduleRecord.At("a", "q", T)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(set.end("b")).isFalse();
    assertThat(set.end("a")).isTrue();
    assertThat(set.end("a")).isFalse();
    assertThatThrownBy(() -> set.create(new ScheduleRecord.At("a", "q", T)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(set.tryCreate(new ScheduleRecord.At("a", "q", T))).isFalse();
    assertThat(set.seenIds()).containsExactly("a");
    assertThat(set.tryCreate(new ScheduleRecord.At("b", "q", T))).isTrue();
    assertThat(set.tryCreate(new ScheduleRecord.At("b", "r", T))).isFalse();
    assertThat(set.get("b")).contains(new ScheduleRecord.At("b", "q", T));
    assertThat(set.seenInCreationOrder()).containsExactly("a", "b");
  }

  @Test
  void drainingInDueOrderLeavesTheRestInCreationOrder() {
    RecordIndex set = new RecordIndex();
    for (int i = 0; i < 10_000; i++) {
      set.create(new ScheduleRecord.At("r" + i, "p", T - i));
    }
    for (int i = 0; i < 9_990; i++) {
      assertThat(set.earliest().orElseThrow().id()).isEqualTo("r" + (9_999 - i));
      set.end("r" + (9_999 - i));
    }
    assertThat(set.activeInCreationOrder()).extracting(ScheduleRecord::id)
        .containsExactly("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9");
    assertThat(set.earliest().orElseThrow().id()).isEqualTo("r9");
  }

  @Test
  void idsWhoseHashesCollideAndWideTextAreKeptApartAndGivenBackEqual() {
    RecordIndex set = new RecordIndex();
    // "Aa" and "BB" have the same String hash, so they share a probe chain
    List<String> ids = List.of("Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "\u20ac-1", "\u00e9", "\ud800x");
    for (String id : ids) {
      set.create(new ScheduleRecord.After(id, "p\u2028\u00ff " + id, 1, T));
    }
    assertThat(set.seenIds()).containsExactlyInAnyOrderElementsOf(ids).hasSize(ids.size());
    assertThat(set.seenInCreationOrder()).containsExactlyElementsOf(ids);
    assertThat(set.end("BB")).isTrue();
    assertThat(set.seen("BB")).isTrue();
    assertThat(set.isActive("BB")).isFalse();
    assertThat(set.isActive("Aa")).isTrue();
    assertThat(set.get("AaBB")).contains(new ScheduleRecord.After("AaBB", "p\u2028\u00ff AaBB", 1, T));
    assertThat(set.get("\u20ac-1").orElseThrow().prompt()).isEqualTo("p\u2028\u00ff \u20ac-1");
    assertThat(set.seen("\u20ac-2")).isFalse();
    assertThat(set.seenInCreationOrder()).containsExactlyElementsOf(ids);
    assertThat(set.copy().seenInCreationOrder()).containsExactlyElementsOf(ids);
  }

  @Test
  void everySeenIdStaysFoundAsTheTableGrows() {
    RecordIndex set = new RecordIndex();
    for (int i = 0; i < 50_000; i++) {
      set.create(new ScheduleRecord.At("schedule-" + i, "p", T + i));
      if (i % 3 == 0) {
        assertThat(set.end("schedule-" + i)).isTrue();
      }
    }
    for (int i = 0; i < 50_000; i++) {
      assertThat(set.seen("schedule-" + i)).isTrue();
      assertThat(set.isActive("schedule-" + i)).isEqualTo(i % 3 != 0);
    }
    assertThat(set.seen("schedule-50000")).isFalse();
    assertThat(set.seenIds()).hasSize(50_000).contains("schedule-0", "schedule-49999");
    assertThat(set.activeCount()).isEqualTo(50_000 - 16_667);
  }
}
