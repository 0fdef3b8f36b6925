package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.DueSessions;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.DueIndex;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.store.SyncMode;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.log.CapturingWarnings;
import dev.horae.testkit.log.LogWaits;
import dev.horae.testkit.time.ManualTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reminders of sessions nobody holds open (docs/persistence.md, "The due index"): one runtime over a
 * file store of 50 cold sessions, each with one reminder, serves them all through the due index —
 * none is opened before its reminder is due, never more than five are open, each reminder is
 * dispatched exactly once by the Schedule owner of the agent the worker opened, and every session
 * is closed again once idle. The manual clock drives every pass; the test waits on passes and log
 * appends, never on wall time.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DueSessionsTest {

  private static final Instant START = Instant.parse("2026-12-01T09:00:00Z");
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final int SESSIONS = 50;
  private static final int MAX_OPEN = 5;

  @TempDir Path root;

  private static String id(int i) {
    return String.format("cold-%02d", i);
  }

  /** 50 sessions, written by a store with the Schedule indexer, reminders due 10 s to 19 s after the start. */
  private void seed() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, ScheduleDueIndex::track)) {
      for (int i = 0; i < SESSIONS; i++) {
        Instant at = START.plusSeconds(10 + i % 10);
        SessionEvent create = SessionEvent.of(0, "schedule/change", START.toEpochMilli(), Json.parse(
            "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"at\",\"prompt\":\"check "
                + i + "\",\"scheduledAt\":\"" + UTC.format(at) + "\"}}"));
        store.persist(SessionHeader.root(id(i), START.toEpochMilli(), Optional.empty()), List.of(create))
            .toCompletableFuture().join();
      }
      DueIndex index = store.dueIndex().orElseThrow();
      assertThat(index.dueBy(Long.MAX_VALUE, 100)).hasSize(SESSIONS);
      assertThat(index.earliest()).hasValue(START.plusSeconds(10).toEpochMilli());
    }
  }

  private static long dispatches(List<SessionEvent> log) {
    return log.stream()
        .filter(e -> e.type().equals("schedule/change") && e.data().get("operation").asText().equals("dispatch"))
        .count();
  }

  private static boolean served(List<SessionEvent> log) {
    int dispatch = -1;
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i).type().equals("schedule/change") && log.get(i).data().get("operation").asText().equals("dispatch")) {
        dispatch = i;
      }
    }
    if (dispatch < 0) {
      return false;
    }
    for (int i = dispatch; i < log.size(); i++) {
      if (log.get(i).type().equals("turn/end")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void fiftyColdSessionsAreServedOnceEachWithAtMostFiveOpen() throws Exception {
    seed();
    ManualTime time = new ManualTime(START);
    CapturingWarnings warnings = new CapturingWarnings();
    AtomicInteger mostOpen = new AtomicInteger();
    BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
    int passCount = 0;
    try (HoraeRuntime horae = HoraeRuntime.builder()
        .dataDir(root)
        .dueIndexer(ScheduleDueIndex::track)
        .dueSessions(DueSessions.Settings.DEFAULTS.withMaxOpen(MAX_OPEN).withPoll(Duration.ofSeconds(1))
            .withKeepOpenWithin(Duration.ZERO))
        .clock(time).timers(time).model(new ScriptedModel()).warnings(warnings)
        .build()) {
      horae.install(SchedulePlugin.create());
      var unused = horae.agents().onCreated(a -> mostOpen.accumulateAndGet(horae.agents().all().size(), Math::max));
      DueSessions worker = horae.dueSessions().orElseThrow();
      var unusedPass = worker.onPass(passes::add);
      worker = horae.startDueSessions();

      // the first pass runs at once: nothing is due yet, so nothing opens
      time.advance(Duration.ZERO);
      DueSessions.Pass first = passes.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.opened()).isEmpty();
      assertThat(horae.agents().all()).isEmpty();

      int served = 0;
      for (int step = 0; step < 200 && (served < SESSIONS || !worker.opened().isEmpty()); step++) {
        time.advance(Duration.ofSeconds(1));
        DueSessions.Pass pass = passes.poll(30, TimeUnit.SECONDS);
        assertThat(pass).as("pass after step %d", step).isNotNull();
        passCount++;
        assertThat(pass.open()).isLessThanOrEqualTo(MAX_OPEN);
        served += pass.closed().size();
        for (String id : pass.opened()) {
          // opened only once due: the reminders come due 10 s to 19 s after the start
          int i = Integer.parseInt(id.substring(5));
          assertThat(time.instant()).isAfterOrEqualTo(START.plusSeconds(10 + i % 10));
          RuntimeAgent agent = (RuntimeAgent) horae.agents().get(id).orElseThrow();
          LogWaits.until(horae, agent, DueSessionsTest::served);
          agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        assertThat(horae.agents().all().size()).isLessThanOrEqualTo(MAX_OPEN);
      }
      assertThat(served).isEqualTo(SESSIONS);
      assertThat(worker.opened()).isEmpty();
      assertThat(horae.agents().all()).isEmpty();
      assertThat(horae.sessions().list()).isEmpty();
      assertThat(worker.index().earliest()).isEmpty();
      assertThat(mostOpen.get()).isEqualTo(MAX_OPEN);
      assertThat(warnings.warnings()).isEmpty();
    }
    // ten groups of five due seconds apart, five open at a time: ten seconds of passes and a few more
    assertThat(passCount).isBetween(SESSIONS / MAX_OPEN, 200);
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      for (int i = 0; i < SESSIONS; i++) {
        StoredSession s = store.load(id(i)).orElseThrow();
        assertThat(dispatches(s.events())).as(id(i)).isEqualTo(1);
        assertThat(s.events().stream().filter(e -> e.type().equals("user/message")
            && e.data().path("source").path("plugin").asText().equals("tool-schedule")).count()).as(id(i)).isEqualTo(1);
      }
    }
  }

  /**
   * Two leased nodes on one store (the in-memory store's fenced leases, the JDBC rules): each pass
   * claims due sessions for its node, so every reminder is dispatched once, by whichever node
   * claimed its session, and neither node opens more than its bound.
   */
  @Test
  void twoLeasedNodesShareTheSessionsAndDispatchEachReminderOnce() throws Exception {
    ManualTime time = new ManualTime(START);
    MemorySessionStore store = new MemorySessionStore(ScheduleDueIndex::track);
    int count = 20;
    for (int i = 0; i < count; i++) {
      SessionEvent create = SessionEvent.of(0, "schedule/change", START.toEpochMilli(), Json.parse(
          "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"at\",\"prompt\":\"p"
              + i + "\",\"scheduledAt\":\"" + UTC.format(START.plusSeconds(5)) + "\"}}"));
      store.persist(SessionHeader.root(id(i), START.toEpochMilli(), Optional.empty()), List.of(create))
          .toCompletableFuture().join();
    }
    DueSessions.Settings settings = DueSessions.Settings.DEFAULTS.withMaxOpen(3).withKeepOpenWithin(Duration.ZERO);
    BlockingQueue<DueSessions.Pass> passesA = new LinkedBlockingQueue<>();
    BlockingQueue<DueSessions.Pass> passesB = new LinkedBlockingQueue<>();
    java.util.Set<String> openedByA = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.Set<String> openedByB = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (HoraeRuntime a = HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), time))
            .dueSessions(settings).clock(time).timers(time).model(new ScriptedModel()).build();
        HoraeRuntime b = HoraeRuntime.builder().leases(store.leases("node-b", Duration.ofSeconds(30), time))
            .dueSessions(settings).clock(time).timers(time).model(new ScriptedModel()).build()) {
      a.install(SchedulePlugin.create());
      b.install(SchedulePlugin.create());
      var ra = a.startDueSessions().onPass(passesA::add);
      var rb = b.startDueSessions().onPass(passesB::add);
      time.advance(Duration.ZERO);
      int closed = 0;
      for (int step = 0; step < 100 && closed < count; step++) {
        DueSessions.Pass pa = passesA.poll(30, TimeUnit.SECONDS);
        DueSessions.Pass pb = passesB.poll(30, TimeUnit.SECONDS);
        assertThat(pa).isNotNull();
        assertThat(pb).isNotNull();
        assertThat(pa.open()).isLessThanOrEqualTo(3);
        assertThat(pb.open()).isLessThanOrEqualTo(3);
        closed += pa.closed().size() + pb.closed().size();
        assertThat(java.util.Collections.disjoint(pa.opened(), pb.opened())).isTrue();
        openedByA.addAll(pa.opened());
        openedByB.addAll(pb.opened());
        for (String id : pa.opened()) {
          LogWaits.until(a, (RuntimeAgent) a.agents().get(id).orElseThrow(), DueSessionsTest::served);
        }
        for (String id : pb.opened()) {
          LogWaits.until(b, (RuntimeAgent) b.agents().get(id).orElseThrow(), DueSessionsTest::served);
        }
        time.advance(Duration.ofSeconds(1));
      }
      assertThat(closed).isEqualTo(count);
      assertThat(openedByA).isNotEmpty();
      assertThat(openedByB).isNotEmpty();
      ra.close();
      rb.close();
    }
    for (int i = 0; i < count; i++) {
      assertThat(dispatches(store.load(id(i)).orElseThrow().events())).as(id(i)).isEqualTo(1);
    }
  }

  @Test
  void aRestartedRuntimeFindsNothingLeftToDispatch() throws Exception {
    seed();
    ManualTime time = new ManualTime(START.plusSeconds(60));
    BlockingQueue<DueSessions.Pass> passes = new LinkedBlockingQueue<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(root).dueIndexer(ScheduleDueIndex::track)
        .dueSessions(DueSessions.Settings.DEFAULTS.withMaxOpen(SESSIONS).withKeepOpenWithin(Duration.ZERO))
        .clock(time).timers(time).model(new ScriptedModel()).build()) {
      horae.install(SchedulePlugin.create());
      var unused = horae.startDueSessions().onPass(passes::add);
      time.advance(Duration.ZERO);
      DueSessions.Pass pass = passes.poll(30, TimeUnit.SECONDS);
      assertThat(pass).isNotNull();
      assertThat(pass.opened()).hasSize(SESSIONS);
      for (String id : pass.opened()) {
        LogWaits.until(horae, (RuntimeAgent) horae.agents().get(id).orElseThrow(), DueSessionsTest::served);
      }
    }
    // every dispatch is durable and the index says so: a new runtime opens nothing
    ManualTime later = new ManualTime(START.plusSeconds(120));
    BlockingQueue<DueSessions.Pass> again = new LinkedBlockingQueue<>();
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(root).dueIndexer(ScheduleDueIndex::track)
        .dueSessions(DueSessions.Settings.DEFAULTS).clock(later).timers(later).model(new ScriptedModel()).build()) {
      horae.install(SchedulePlugin.create());
      var unused = horae.startDueSessions().onPass(again::add);
      later.advance(Duration.ZERO);
      DueSessions.Pass pass = again.poll(30, TimeUnit.SECONDS);
      assertThat(pass).isNotNull();
      assertThat(pass.opened()).isEmpty();
    }
  }
}
