package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.schedule.internal.ActiveRecords;
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
 * The fold's active set (issue 19): after any sequence of creates and ends, its creation order and
 * its earliest record equal what the naive definitions give — the records in insertion order, and
 * a strict less-than scan over them, so ties keep creation order (spec §12.3 [S194, S214]).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActiveRecordsTest {

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
    ActiveRecords set = new ActiveRecords();
    Map<String, ScheduleRecord> model = new LinkedHashMap<>();
    List<String> ids = new ArrayList<>();
    int order = 0;
    for (int step = 0; step < 20_000; step++) {
      if (model.isEmpty() || rnd.nextInt(10) < 6) {
        // few distinct targets, so ties are common
        String id = "schedule-" + (order + 1);
        ScheduleRecord r = new ScheduleRecord.At(id, "p", T + rnd.nextInt(50));
        set.add(r, order++);
        model.put(id, r);
        ids.add(id);
      } else {
        // end the earliest (a dispatch) or any active record (a delete)
        String id = rnd.nextBoolean()
            ? scanEarliest(model).orElseThrow().id()
            : ids.get(rnd.nextInt(ids.size()));
        assertThat(set.remove(id)).isEqualTo(model.remove(id) != null);
      }
      assertThat(set.earliest()).isEqualTo(scanEarliest(model));
      assertThat(set.size()).isEqualTo(model.size());
      if (step % 500 == 0) {
        assertThat(set.inCreationOrder()).containsExactlyElementsOf(model.values());
        ActiveRecords copy = set.copy();
        assertThat(copy.inCreationOrder()).containsExactlyElementsOf(model.values());
        assertThat(copy.earliest()).isEqualTo(set.earliest());
      }
    }
    // drain in due order: each removal of the earliest exposes the next one
    while (!model.isEmpty()) {
      ScheduleRecord next = scanEarliest(model).orElseThrow();
      assertThat(set.earliest()).contains(next);
      set.remove(next.id());
      model.remove(next.id());
    }
    assertThat(set.earliest()).isEmpty();
    assertThat(set.size()).isZero();
  }

  @Test
  void aCopyIsIndependentOfItsSource() {
    ActiveRecords set = new ActiveRecords();
    ScheduleRecord late = new ScheduleRecord.At("late", "p", T + 10);
    ScheduleRecord early = new ScheduleRecord.At("early", "p", T);
    set.add(late, 0);
    set.add(early, 1);
    ActiveRecords copy = set.copy();
    copy.remove("early");
    copy.add(new ScheduleRecord.At("latest", "p", T + 20), 2);
    assertThat(set.earliest()).contains(early);
    assertThat(set.inCreationOrder()).containsExactly(late, early);
    assertThat(copy.earliest()).contains(late);
    assertThat(copy.contains("early")).isFalse();
    assertThat(copy.get("latest")).isPresent();
    assertThat(set.get("latest")).isEmpty();
  }

  @Test
  void anActiveIdCannotBeAddedTwiceAndAnInactiveOneIsNotRemoved() {
    ActiveRecords set = new ActiveRecords();
    set.add(new ScheduleRecord.At("a", "p", T), 0);
    assertThatThrownBy(() -> set.add(new ScheduleRecord.At("a", "q", T), 1))
        .isInstanceOf(IllegalStateException.class);
    assertThat(set.remove("b")).isFalse();
    assertThat(set.remove("a")).isTrue();
    assertThat(set.remove("a")).isFalse();
  }

  @Test
  void drainingInDueOrderLeavesTheRestInCreationOrder() {
    ActiveRecords set = new ActiveRecords();
    for (int i = 0; i < 10_000; i++) {
      set.add(new ScheduleRecord.At("r" + i, "p", T - i), i);
    }
    for (int i = 0; i < 9_990; i++) {
      assertThat(set.earliest().orElseThrow().id()).isEqualTo("r" + (9_999 - i));
      set.remove("r" + (9_999 - i));
    }
    assertThat(set.inCreationOrder()).extracting(ScheduleRecord::id)
        .containsExactly("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9");
    assertThat(set.earliest().orElseThrow().id()).isEqualTo("r9");
  }
}
