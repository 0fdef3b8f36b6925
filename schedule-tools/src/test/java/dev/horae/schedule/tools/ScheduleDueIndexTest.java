package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.DueIndex;
import dev.horae.store.MemorySessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Schedule's indexer on a store: the entry is the earliest active reminder of the fold, moved by
 * create, delete and dispatch in the persist that carries them; a fork's inherited reminders do not
 * count; a corrupt log indexes as not due.
 */
class ScheduleDueIndexTest {

  private static final long T0 = 1_796_036_400_000L; // 2026-12-01T09:00:00Z

  private final MemorySessionStore store = new MemorySessionStore(ScheduleDueIndex::track);
  private final DueIndex index = store.dueIndex().orElseThrow();
  private final List<SessionEvent> log = new ArrayList<>();

  private static String at(long ms) {
    return java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(ms));
  }

  private ScheduleDueIndexTest add(String json) {
    log.add(SessionEvent.of(log.size(), "schedule/change", T0, Json.parse(json)));
    return this;
  }

  private ScheduleDueIndexTest create(String id, long ms) {
    return add("{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"" + id
        + "\",\"kind\":\"at\",\"prompt\":\"p\",\"scheduledAt\":\"" + at(ms) + "\"}}");
  }

  private ScheduleDueIndexTest end(String operation, String id) {
    return add("{\"version\":1,\"operation\":\"" + operation + "\",\"id\":\"" + id + "\"}");
  }

  private OptionalLong persist(SessionHeader header) {
    store.persist(header, List.copyOf(log)).toCompletableFuture().join();
    return index.dueAt(header.id());
  }

  @Test
  void theEntryIsTheEarliestActiveReminderThroughCreateDeleteAndDispatch() {
    SessionHeader h = SessionHeader.root("s", T0, Optional.empty());
    assertThat(create("schedule-1", T0 + 60_000).persist(h)).hasValue(T0 + 60_000);
    assertThat(create("schedule-2", T0 + 30_000).persist(h)).hasValue(T0 + 30_000);
    // a tie keeps creation order, so the entry stays
    assertThat(create("schedule-3", T0 + 30_000).persist(h)).hasValue(T0 + 30_000);
    assertThat(end("delete", "schedule-2").persist(h)).hasValue(T0 + 30_000);
    assertThat(end("dispatch", "schedule-3").persist(h)).hasValue(T0 + 60_000);
    assertThat(end("dispatch", "schedule-1").persist(h)).isEmpty();
  }

  @Test
  void aForkDoesNotInheritItsParentsReminders() {
    create("schedule-1", T0 + 10_000);
    SessionHeader fork = new SessionHeader(SessionHeader.CURRENT_VERSION, "child", T0, Optional.empty(),
        Optional.of("parent"), 1, Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty());
    assertThat(persist(fork)).isEmpty();
    // the fork's own reminder may even reuse the inherited id (spec §3.6)
    assertThat(create("schedule-1", T0 + 90_000).persist(fork)).hasValue(T0 + 90_000);
  }

  @Test
  void aCorruptLogIsIndexedAsNotDue() {
    SessionHeader h = SessionHeader.root("s", T0, Optional.empty());
    assertThat(create("schedule-1", T0 + 60_000).persist(h)).hasValue(T0 + 60_000);
    // a second create of the same id is corruption: the owner would fault, nothing can come due
    assertThat(create("schedule-1", T0 + 5_000).persist(h)).isEmpty();
    assertThat(create("schedule-2", T0 + 5_000).persist(h)).isEmpty();
  }
}
