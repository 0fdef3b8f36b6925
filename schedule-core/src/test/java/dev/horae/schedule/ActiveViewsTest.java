package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.schedule.internal.RecordIndex;
import dev.horae.schedule.internal.RecordMembers;
import dev.horae.schedule.internal.UtcInstants;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.json.FrozenJson;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code schedule_list} value as lazy frozen rows (issue 19): equal to the views of spec §4.1
 * built from the records, in creation order, with the state of one clock sample, written as the
 * canonical text of spec §4.3, and a snapshot that later changes to the fold do not reach.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ActiveViewsTest {

  private static final long T = 1_785_000_000_000L;
  private static final String CHARS = "ab-1\"\\ é\u2028\u0001\u00a0\ud800\u4e2d/\n\t";

  private static List<ScheduleRecord> records(Random rnd, int n) {
    List<ScheduleRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder text = new StringBuilder("p");
      for (int k = rnd.nextInt(8); k > 0; k--) {
        text.append(CHARS.charAt(rnd.nextInt(CHARS.length())));
      }
      String prompt = text.append('q').toString();
      String id = rnd.nextBoolean() ? "schedule-" + i : "id-" + i + prompt;
      long at = T + rnd.nextInt(2_000_000);
      out.add(rnd.nextBoolean()
          ? new ScheduleRecord.At(id, prompt, at)
          : new ScheduleRecord.After(id, prompt, 1 + rnd.nextInt(1_000_000), at));
    }
    return out;
  }

  @Test
  void theRowsAreTheViewsOfTheActiveRecordsInCreationOrder() {
    Random rnd = new Random(19);
    RecordIndex index = new RecordIndex();
    List<ScheduleRecord> all = records(rnd, 1_500);
    all.forEach(index::create);
    for (int i = 0; i < all.size(); i += 3) {
      index.end(all.get(i).id());
    }
    long now = T + 1_000_000;
    List<ScheduleView> views = new ArrayList<>();
    for (ScheduleRecord r : index.activeInCreationOrder()) {
      views.add(ScheduleView.of(r, now));
    }
    JsonNode rows = index.activeViews(now);

    assertThat(rows.size()).isEqualTo(1_000);
    assertThat(EcmaJson.write(rows)).isEqualTo(ScheduleJson.views(views));
    List<JsonNode> trees = new ArrayList<>();
    views.forEach(v -> trees.add(v.toTree()));
    assertThat(rows).containsExactlyElementsOf(trees);
    assertThat(EcmaJson.write(new RecordIndex().activeViews(now))).isEqualTo("[]");
    // the clock sample decides the state; equality is overdue
    ScheduleRecord first = index.activeInCreationOrder().get(0);
    assertThat(index.activeViews(first.scheduledAtMillis()).get(0).path("state").asText()).isEqualTo("overdue");
    assertThat(index.activeViews(first.scheduledAtMillis() - 1).get(0).path("state").asText()).isEqualTo("scheduled");
  }

  @Test
  void theListIsASnapshotThatLaterChangesDoNotReach() {
    RecordIndex index = new RecordIndex();
    index.create(new ScheduleRecord.At("a", "first", T));
    index.create(new ScheduleRecord.At("b", "second", T + 1));
    JsonNode rows = index.activeViews(T - 5);
    String before = EcmaJson.write(rows);
    index.end("a");
    index.create(new ScheduleRecord.After("c", "third", 60, T + 2));
    assertThat(rows.size()).isEqualTo(2);
    assertThat(EcmaJson.write(rows)).isEqualTo(before);
    assertThat(FrozenJson.isFrozen(rows)).isTrue();
    assertThat(FrozenJson.isFrozen(rows.get(0))).isTrue();
  }

  @Test
  void everyMemberReportsTheKindOfItsValue() {
    for (ScheduleRecord r : records(new Random(7), 200)) {
      for (ObjectNode tree : List.of(RecordMembers.record(r), RecordMembers.view(r, ScheduleView.State.OVERDUE))) {
        FrozenJson.Members members = Objects.requireNonNull(FrozenJson.lazyMembers(tree));
        for (int i = 0; i < members.size(); i++) {
          assertThat(members.type(i)).as("%s of %s", members.name(i), r).isEqualTo(members.value(i).getNodeType());
        }
      }
    }
  }

  @Test
  void theTextARowWritesItselfIsTheTextOfItsMembersOneByOne() {
    List<ScheduleRecord> all = new ArrayList<>(records(new Random(23), 500));
    all.add(new ScheduleRecord.After("max", "safe", EcmaNumbers.MAX_SAFE_INTEGER, T));
    all.add(new ScheduleRecord.At("\ud800", "\udc00\u0000", UtcInstants.MIN_MILLIS));
    for (ScheduleRecord r : all) {
      for (ObjectNode tree : List.of(
          RecordMembers.record(r),
          RecordMembers.view(r, ScheduleView.State.SCHEDULED),
          RecordMembers.view(r, ScheduleView.State.OVERDUE))) {
        FrozenJson.Members members = Objects.requireNonNull(FrozenJson.lazyMembers(tree));
        ObjectNode plain = Json.mapper().createObjectNode();
        for (int i = 0; i < members.size(); i++) {
          plain.set(members.name(i), members.value(i));
        }
        // the plain copy is written member by member by EcmaJson; the row writes its own text
        StringBuilder own = new StringBuilder();
        assertThat(members.appendJson(own)).isTrue();
        assertThat(own).as("%s", r).hasToString(EcmaJson.write(plain));
        assertThat(EcmaJson.write(tree)).isEqualTo(EcmaJson.write(plain));
      }
    }
  }

  @Test
  void aMemberOutsideTheObjectIsRefused() {
    FrozenJson.Members record = Objects.requireNonNull(
        FrozenJson.lazyMembers(RecordMembers.record(new ScheduleRecord.At("y", "q", T))));
    assertThat(record.size()).isEqualTo(4);
    assertThatThrownBy(() -> record.name(4)).isInstanceOf(IndexOutOfBoundsException.class).hasMessage("member 4 of 4");
    assertThatThrownBy(() -> record.value(-1)).isInstanceOf(IndexOutOfBoundsException.class).hasMessage("member -1 of 4");
    assertThatThrownBy(() -> record.type(4)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(record.name(3)).isEqualTo("scheduledAt");
  }

  @Test
  void aViewAndACreatesRecordHaveTheSpecMembersInOrder() {
    ScheduleRecord after = new ScheduleRecord.After("x", "p", 90, T);
    assertThat(EcmaJson.write(RecordMembers.view(after, ScheduleView.State.SCHEDULED))).isEqualTo(
        "{\"id\":\"x\",\"kind\":\"after\",\"prompt\":\"p\",\"afterSeconds\":90,"
            + "\"scheduledAt\":\"2026-07-25T17:20:00.000Z\",\"state\":\"scheduled\",\"deliveryMode\":\"session-local\"}");
    assertThat(EcmaJson.write(RecordMembers.record(new ScheduleRecord.At("y", "q", T)))).isEqualTo(
        "{\"id\":\"y\",\"kind\":\"at\",\"prompt\":\"q\",\"scheduledAt\":\"2026-07-25T17:20:00.000Z\"}");
  }
}
