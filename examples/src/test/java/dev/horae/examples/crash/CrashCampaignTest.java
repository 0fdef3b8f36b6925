package dev.horae.examples.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.horae.gate.RunState;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.schedule.ScheduleFold;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign: child JVMs ({@link CrashChild}) are killed with SIGKILL at seeded random
 * points in three workloads, and after every kill the parent checks the folder the child left.
 *
 * <ul>
 *   <li><b>store</b>: batches appended and flushed; every acknowledged event is present, no
 *       half-written batch remains, and a torn tail (the kill's, or one the test tears into the
 *       unacknowledged bytes) is repaired on reopen.
 *   <li><b>schedule</b>: the production runtime with the Schedule plugin and reminders due a second
 *       after they are made, dispatched on the system clock (follow-up queued, dispatch appended,
 *       barrier flush); the log folds and passes the invariant check, and a reminder delivered
 *       twice is counted and must lie in the documented crash window (docs/schedule.md, "Narrow
 *       crash duplicate window": a crash after the follow-up was queued but before the dispatch
 *       was durable).
 *   <li><b>gate</b>: every {@code send_email} is a scheduled action (pre-commit, tool run, final
 *       commit) whose tool appends its call id to a side file; no call id is sent twice (the
 *       runtime never replays, docs/runtime.md "Durable gates"), every Run has at most one
 *       terminal fact, and the log passes the invariant check.
 * </ul>
 *
 * <p>After the last kill of a runtime workload a child that is not killed recovers the folder
 * (closing interrupted turns, performing parked actions, dispatching overdue reminders) and the
 * final checks count what recovery did. Each workload prints its counts.
 */
@Tag("slow")
class CrashCampaignTest {

  private static final long SEED = 0xC4A54L;
  private static final int STORE_KILLS = 100;
  private static final int SCHEDULE_KILLS = 50;
  private static final int GATE_KILLS = 50;
  private static final int MAX_ACKS_BEFORE_KILL = 20;
  private static final int MAX_DELAY_MS = 2_500;

  @TempDir Path folder;
  @TempDir Path scratch;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void storeAppendFlush() throws Exception {
    Random random = new Random(SEED);
    Path data = folder.resolve(CrashChild.DATA);
    Path file = data.resolve(CrashChild.STORE_SESSION).resolve("events.log");
    long ackedEvents = 0;
    long ackedBytes = 0;
    int tears = 0;
    int repairs = 0;
    for (int round = 0; round < STORE_KILLS; round++) {
      Path err = scratch.resolve("store.err");
      Process child = start(err, "store", folder.toString(), Integer.toString(round), Long.toString(random.nextLong()));
      try (BufferedReader out = ChildJvm.stdout(child)) {
        String ready = out.readLine();
        if (ready == null || !ready.startsWith("ready ")) {
          fail("store child did not start (got " + ready + "); stderr:\n" + ChildJvm.stderr(err));
        }
        assertThat(Long.parseLong(ready.substring(6))).as("the reopened log holds the acknowledged events")
            .isEqualTo(ackedEvents);
        int killAfter = 1 + random.nextInt(MAX_ACKS_BEFORE_KILL);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < killAfter; i++) {
          lines.add(out.readLine());
        }
        ChildJvm.kill(child);
        // acks printed before the kill landed are acknowledged flushes too
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
        }
        for (String line : lines) {
          if (line == null || !line.startsWith("ack ")) {
            fail("store child stopped early (got " + line + "); stderr:\n" + ChildJvm.stderr(err));
          }
          int space = line.indexOf(' ', 4);
          ackedEvents = Math.max(ackedEvents, Long.parseLong(line.substring(4, space)));
          ackedBytes = Math.max(ackedBytes, Long.parseLong(line.substring(space + 1)));
        }
      } finally {
        child.destroyForcibly();
      }
      long sizeAfterKill = Files.size(file);
      if (random.nextBoolean()) {
        sizeAfterKill = tear(file, ackedBytes, sizeAfterKill, random);
        tears++;
      }
      try (FileSessionStore store = FileSessionStore.open(data)) {
        StoredSession session = store.load(CrashChild.STORE_SESSION).orElseThrow();
        checkStoreLog(session.events(), ackedEvents);
        assertThat(SessionLogCheck.check(session.header(), session.events())).isEmpty();
        ackedEvents = session.events().size();
      }
      if (Files.size(file) < sizeAfterKill) {
        repairs++;
      }
      ackedBytes = Files.size(file);
      byte[] bytes = Files.readAllBytes(file);
      assertThat(bytes.length == 0 || bytes[bytes.length - 1] == '\n').as("nothing half-written remains").isTrue();
    }
    assertThat(repairs).as("every torn tail was repaired").isGreaterThanOrEqualTo(tears);
    System.out.println("crash campaign store: kills=" + STORE_KILLS + " recovered=" + STORE_KILLS
        + " events=" + ackedEvents + " tornTails=" + tears + " repaired=" + repairs + " duplicates=0");
  }

  @Test
  @Timeout(value = 420, unit = TimeUnit.SECONDS)
  void scheduleDispatch() throws Exception {
    Random random = new Random(SEED + 1);
    // the durable end of the log when each killed child was gone: events before it were written
    // by a process that was then killed
    long lastKilledEnd = 0;
    for (int round = 0; round < SCHEDULE_KILLS; round++) {
      runAndKill("schedule", round, random);
      lastKilledEnd = checkFolder(true).size();
    }
    drain("schedule", random);
    List<SessionEvent> log = checkFolder(true);
    Map<String, Integer> deliveries = new HashMap<>();
    Map<String, Integer> dispatches = new HashMap<>();
    int created = 0;
    int duplicates = 0;
    int interrupted = 0;
    // per id: the seq of its dispatch, and whether a crash closed a turn since its latest delivery
    Map<String, Long> dispatchedAt = new HashMap<>();
    Map<String, Boolean> crashSinceDelivery = new HashMap<>();
    for (SessionEvent e : log) {
      if (e.type().equals("turn/end") && e.data().path("reason").asText().equals("interrupted")) {
        interrupted++;
        crashSinceDelivery.replaceAll((id, crashed) -> true);
      }
      if (e.type().equals("schedule/change")) {
        String operation = e.data().path("operation").asText();
        if (operation.equals("create")) {
          created++;
        } else if (operation.equals("dispatch")) {
          String id = e.data().path("id").asText();
          dispatches.merge(id, 1, Integer::sum);
          dispatchedAt.put(id, e.seq());
        }
      }
      String id = ChildJvm.deliveredId(e);
      if (id != null) {
        int n = deliveries.merge(id, 1, Integer::sum);
        if (n > 1) {
          duplicates++;
          // the documented window: the earlier delivery's dispatch never became durable, and a
          // crash lies between the two deliveries
          assertThat(crashSinceDelivery.get(id)).as("a crash lies between the deliveries of %s", id).isTrue();
          assertThat(dispatchedAt).as("%s was delivered again after its dispatch was durable", id)
              .doesNotContainKey(id);
        }
        crashSinceDelivery.put(id, false);
      }
    }
    assertThat(created).as("reminders were created").isPositive();
    assertThat(dispatches.values()).as("no reminder is dispatched twice").allMatch(n -> n == 1);
    // The open window of docs/schedule.md ("Bursts"): a dispatch is durable at its barrier, but the
    // reminder turn appends its user/message afterwards, so a kill between the two leaves a durable
    // dispatch without its delivery. Such a loss must lie in a killed child's part of the log; the
    // drain run, which nothing kills, must deliver everything it dispatches.
    int undelivered = 0;
    for (Map.Entry<String, Long> d : dispatchedAt.entrySet()) {
      if (!deliveries.containsKey(d.getKey())) {
        undelivered++;
        assertThat(d.getValue()).as("%s was dispatched by the drain run and never delivered", d.getKey())
            .isLessThan(lastKilledEnd);
      }
    }
    assertThat(ScheduleFold.fold(log, 0).active()).as("recovery dispatched every overdue reminder").isEmpty();
    System.out.println("crash campaign schedule: kills=" + SCHEDULE_KILLS + " recovered=" + (SCHEDULE_KILLS + 1)
        + " reminders=" + created + " dispatched=" + dispatches.size() + " duplicates=" + duplicates
        + " (documented window) undelivered=" + undelivered + " (the open window, each in a killed child)"
        + " interruptedTurns=" + interrupted);
  }

  @Test
  @Timeout(value = 420, unit = TimeUnit.SECONDS)
  void gatePerform() throws Exception {
    Random random = new Random(SEED + 2);
    for (int round = 0; round < GATE_KILLS; round++) {
      runAndKill("gate", round, random);
      checkFolder(false);
      checkEffects();
    }
    drain("gate", random);
    List<SessionEvent> log = checkFolder(false);
    Map<String, Integer> effects = checkEffects();
    Map<String, Integer> results = new HashMap<>();
    int unknown = 0;
    int calls = 0;
    for (SessionEvent e : log) {
      if (e.type().equals("tool/result") && e.data().path("tool").asText().equals("send_email")) {
        String callId = e.data().path("callId").asText();
        results.merge(callId, 1, Integer::sum);
        if (e.data().toString().contains("tool outcome unknown")) {
          unknown++;
        } else if (!e.data().path("isError").asBoolean()) {
          assertThat(effects).as("a successful result for %s means its email was sent", callId).containsKey(callId);
        }
      }
      if (e.type().equals("tool/call") && e.data().path("tool").asText().equals("send_email")) {
        calls++;
      }
    }
    assertThat(results.values()).as("one result per call").allMatch(n -> n == 1);
    assertThat(effects.keySet()).as("every sent email has a result").isSubsetOf(results.keySet());
    System.out.println("crash campaign gate: kills=" + GATE_KILLS + " recovered=" + (GATE_KILLS + 1) + " calls="
        + calls + " results=" + results.size() + " emailsSent=" + effects.size() + " duplicates=0 unknownOutcomes="
        + unknown);
  }

  /** Each sent call id at most once; returns the counts. */
  private Map<String, Integer> checkEffects() throws IOException {
    Map<String, Integer> sent = new HashMap<>();
    Path effects = folder.resolve(CrashChild.EFFECTS);
    if (Files.exists(effects)) {
      for (String line : Files.readAllLines(effects, StandardCharsets.UTF_8)) {
        sent.merge(line, 1, Integer::sum);
      }
    }
    assertThat(sent).as("no email is sent twice").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
    return sent;
  }

  /**
   * Reopens the store: every session passes the invariant check, the agent's log folds, and every
   * Run has at most one terminal fact. Returns the agent's log.
   */
  private List<SessionEvent> checkFolder(boolean schedule) {
    try (FileSessionStore store = FileSessionStore.open(folder.resolve(CrashChild.DATA))) {
      List<SessionEvent> agentLog = List.of();
      for (String id : store.ids()) {
        StoredSession s = store.load(id).orElseThrow();
        assertThat(SessionLogCheck.check(s.header(), s.events())).as("invariant findings of " + id).isEmpty();
        Map<String, Integer> terminal = new HashMap<>();
        for (SessionEvent e : s.events()) {
          if (e.type().equals("gate/commit")) {
            RunDisposition run = CommitCodec.decodeCommit(e.data().path("commit")).run();
            if (run.state() instanceof RunState.Ended) {
              terminal.merge(run.runId(), 1, Integer::sum);
            }
          }
        }
        assertThat(terminal.values()).as("at most one terminal fact per Run in " + id).allMatch(n -> n == 1);
        if (schedule) {
          // throws CorruptScheduleLogException when the owned suffix does not fold
          var unused = ScheduleFold.fold(s.events(), s.header().seedLength());
        }
        if (id.equals(CrashChild.AGENT_SESSION)) {
          agentLog = s.events();
        }
      }
      return agentLog;
    }
  }

  /** Starts a runtime child, lets it run a seeded random time after it is ready, and kills it. */
  private void runAndKill(String workload, int round, Random random) throws Exception {
    Path err = scratch.resolve(workload + ".err");
    Process child = start(err, workload, folder.toString(), Integer.toString(round), Long.toString(random.nextLong()));
    try (BufferedReader out = ChildJvm.stdout(child)) {
      String ready = out.readLine();
      if (!"ready".equals(ready)) {
        fail(workload + " child did not recover the folder (got " + ready + "); stderr:\n" + ChildJvm.stderr(err));
      }
      Thread.sleep(random.nextInt(MAX_DELAY_MS));
      assertThat(child.isAlive()).as("%s child still running; stderr:\n%s", workload, ChildJvm.stderr(err)).isTrue();
      ChildJvm.kill(child);
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        assertThat(line).startsWith("step ");
      }
    } finally {
      child.destroyForcibly();
    }
  }

  /** Runs a child that only recovers the folder, to its end. */
  private void drain(String workload, Random random) throws Exception {
    Path err = scratch.resolve(workload + "-drain.err");
    Process child = start(err, workload, folder.toString(), "-1", Long.toString(random.nextLong()), "drain");
    try (BufferedReader out = ChildJvm.stdout(child)) {
      assertThat(out.readLine()).as("stderr:\n%s", ChildJvm.stderr(err)).isEqualTo("ready");
      assertThat(out.readLine()).as("stderr:\n%s", ChildJvm.stderr(err)).isEqualTo("drained");
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("stderr:\n%s", ChildJvm.stderr(err)).isZero();
    } finally {
      child.destroyForcibly();
    }
  }

  /**
   * Tears what lies beyond the acknowledged bytes, as an OS crash or a kill inside a write would:
   * cuts a written-but-unacknowledged line at a random byte or, when there is none, appends the
   * start of a line without its end.
   */
  private static long tear(Path file, long acked, long size, Random random) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (size - acked > 1) {
        long cut = acked + 1 + random.nextInt((int) (size - acked - 1));
        channel.truncate(cut);
        return cut;
      }
      String line = "{\"seq\":" + random.nextInt(1_000_000) + ",\"type\":\"crash/event\",\"time\":";
      ByteBuffer prefix = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8), 0, 1 + random.nextInt(line.length() - 1));
      long position = size;
      while (prefix.hasRemaining()) {
        position += channel.write(prefix, position);
      }
      return position;
    }
  }

  private static void checkStoreLog(List<SessionEvent> events, long acked) {
    assertThat((long) events.size()).as("every acknowledged event is present").isGreaterThanOrEqualTo(acked);
    for (int i = 0; i < events.size(); i++) {
      SessionEvent e = events.get(i);
      assertThat(e.seq()).as("contiguous").isEqualTo(i);
      assertThat(e.data().get("n").asLong()).isEqualTo(i);
      long batch = e.data().get("batch").asLong();
      long of = e.data().get("of").asLong();
      assertThat(batch + of).as("batch at %d is whole", batch).isLessThanOrEqualTo(events.size());
    }
  }

  private static Process start(Path stderr, String... args) throws IOException {
    return ChildJvm.start(CrashChild.class, stderr, "256m", List.of(args));
  }
}
