package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.internal.frame.LineFrame;
import java.io.BufferedReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part 2 of the store's contract: a child JVM appends and persists in a loop (three threads, so
 * persists share fsyncs) and is killed with SIGKILL at seeded random points; after every kill the
 * log holds every acknowledged event, no half-written batch, and is contiguous, and the next child
 * continues it.
 *
 * <p>A SIGKILL rarely lands inside a single write, so after a seeded half of the kills the test
 * also tears the unacknowledged tail itself (a cut inside a written-but-unacknowledged line, or a
 * partial next line), as an OS crash or a kill inside a write would; the acknowledged prefix is
 * never touched, so the store must still hold every acknowledged event, repair the tail, and the
 * next writer must continue after it.
 */
class CrashTest {

  private static final long SEED = 0x5EED_10L;
  private static final int ROUNDS = 8;
  private static final int MAX_ACKS_BEFORE_KILL = 40;

  @TempDir Path root;
  @TempDir Path scratch;

  @Test
  @Timeout(value = 50, unit = TimeUnit.SECONDS)
  void everyAcknowledgedFlushSurvivesSigkill() throws Exception {
    Random random = new Random(SEED);
    Path file = Logs.eventsFile(root, CrashWriter.SESSION);
    Progress progress = new Progress();
    int repairs = 0;
    int tears = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Path err = scratch.resolve("writer-" + round + ".err");
      Process child = ChildJvm.start(CrashWriter.class, err, root.toString(), Long.toString(random.nextLong()));
      try (BufferedReader out = ChildJvm.stdout(child)) {
        String ready = out.readLine();
        if (ready == null || !ready.startsWith("ready ")) {
          fail("writer did not start (got " + ready + "); stderr:\n" + ChildJvm.stderr(err));
        }
        assertThat(Long.parseLong(ready.substring(6))).isGreaterThanOrEqualTo(progress.acked.events());
        int killAfter = 1 + random.nextInt(MAX_ACKS_BEFORE_KILL);
        for (int i = 0; i < killAfter; i++) {
          progress.read(out.readLine(), err);
        }
        // SIGKILL through the handle: Process.destroyForcibly would also close our end of its stdout
        assertThat(child.toHandle().destroyForcibly()).isTrue();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // acks printed before the kill landed are acknowledged flushes too
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          progress.read(line, err);
        }
      } finally {
        child.destroyForcibly();
      }
      long sizeAfterKill = Files.size(file);
      if (random.nextBoolean()) {
        sizeAfterKill = tearUnacknowledgedTail(file, progress.acked, sizeAfterKill, random);
        tears++;
      }
      try (FileSessionStore store = FileSessionStore.open(root)) {
        List<SessionEvent> events = store.load(CrashWriter.SESSION).orElseThrow().events();
        check(events, progress.acked.events());
        checkForks(store, events, progress.forks);
        // what survived is durable now (opening forced it) and is where the next writer starts
        progress.acked = new Ack(events.size(), Files.size(file));
      }
      if (Files.size(file) < sizeAfterKill) {
        repairs++;
      }
      byte[] bytes = Files.readAllBytes(file);
      assertThat(bytes.length == 0 || bytes[bytes.length - 1] == '\n').as("nothing half-written remains").isTrue();
    }
    assertThat(repairs).as("every torn tail was repaired").isGreaterThanOrEqualTo(tears);
    System.out.println("crash test: " + ROUNDS + " SIGKILLs, " + progress.acked.events() + " events kept, "
        + progress.forks.size() + " acknowledged forks, " + tears + " unacknowledged tails torn, " + repairs
        + " torn tails repaired");
  }

  /**
   * Tears what lies beyond the acknowledged bytes, as an OS crash or a kill inside a write would:
   * cuts a written-but-unacknowledged line at a random byte, or, when there is none, appends a
   * random prefix of a plausible next line.
   */
  private static long tearUnacknowledgedTail(Path file, Ack acked, long size, Random random) throws Exception {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (size - acked.bytes() > 1) {
        long cut = acked.bytes() + 1 + (long) random.nextInt((int) (size - acked.bytes() - 1));
        channel.truncate(cut);
        return cut;
      }
      byte[] next = LineFrame.encode(Logs.log((int) acked.events() + 3).subList((int) acked.events(), (int) acked.events() + 3));
      ByteBuffer prefix = ByteBuffer.wrap(next, 0, 1 + random.nextInt(next.length - 1));
      long position = size;
      while (prefix.hasRemaining()) {
        position += channel.write(prefix, position);
      }
      return position;
    }
  }

  /** What the writer acknowledged: events and the file length that held them. */
  private record Ack(long events, long bytes) {}

  /** What the writer acknowledged so far. */
  private static final class Progress {
    Ack acked = new Ack(0, 0);
    final Set<Long> forks = new TreeSet<>();

    void read(@Nullable String line, Path err) {
      if (line != null && line.startsWith("ack ")) {
        int space = line.indexOf(' ', 4);
        // writer threads print out of order: what counts is the longest acknowledged snapshot
        acked = new Ack(
            Math.max(acked.events(), Long.parseLong(line.substring(4, space))),
            Math.max(acked.bytes(), Long.parseLong(line.substring(space + 1))));
      } else if (line != null && line.startsWith("fork ")) {
        forks.add(Long.parseLong(line.substring(5)));
      } else {
        fail("writer stopped early (got " + line + "); stderr:\n" + ChildJvm.stderr(err));
      }
    }
  }

  /**
   * Every acknowledged fork is whole: its header names the parent and seed, its log is the parent's
   * prefix plus the end-seed marker; and no fork whose creation was cut short is listed.
   */
  private static void checkForks(FileSessionStore store, List<SessionEvent> parent, Set<Long> acked) {
    Set<String> ids = store.ids();
    for (long seed : acked) {
      assertThat(ids).contains(CrashWriter.forkId(seed));
    }
    for (String id : ids) {
      if (id.equals(CrashWriter.SESSION)) {
        continue;
      }
      StoredSession fork = store.load(id).orElseThrow();
      long seed = fork.header().seedLength();
      assertThat(id).isEqualTo(CrashWriter.forkId(seed));
      assertThat(fork.header().parentSession()).contains(CrashWriter.SESSION);
      assertThat(fork.events()).hasSize((int) seed + 1);
      assertThat(fork.events().subList(0, (int) seed)).isEqualTo(parent.subList(0, (int) seed));
      assertThat(fork.events().get((int) seed).type()).isEqualTo("session/end-seed");
      store.release(id);
    }
  }

  private static void check(List<SessionEvent> events, long acked) {
    assertThat((long) events.size()).as("every acknowledged event is present").isGreaterThanOrEqualTo(acked);
    for (int i = 0; i < events.size(); i++) {
      SessionEvent e = events.get(i);
      JsonNode data = e.data();
      assertThat(e.seq()).as("contiguous").isEqualTo(i);
      assertThat(data.get("n").asLong()).isEqualTo(i);
      assertThat(e.time()).isEqualTo(i);
      long batch = data.get("batch").asLong();
      long of = data.get("of").asLong();
      assertThat(i).as("event %d lies in its batch", i).isBetween((int) batch, (int) (batch + of - 1));
      assertThat(batch + of).as("batch at %d is whole", batch).isLessThanOrEqualTo(events.size());
      assertThat(data.get("pad").asText()).matches("x*");
    }
  }
}
