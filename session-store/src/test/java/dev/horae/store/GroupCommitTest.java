package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.Forcer;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent persists of one session share one fsync; every fsync is counted through the seam. */
class GroupCommitTest {

  @TempDir Path root;
  private final ExecutorService pool = Executors.newFixedThreadPool(8);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  /** Counts fsyncs; when held, the next one blocks until released. */
  private static final class HoldingForcer implements Forcer {
    final AtomicInteger count = new AtomicInteger();
    final AtomicBoolean hold = new AtomicBoolean();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void force(FileChannel channel) throws IOException {
      count.incrementAndGet();
      if (hold.compareAndSet(true, false)) {
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while held", e);
        }
      }
      channel.force(false);
    }
  }

  @Test
  void persistsThatWriteDuringAnFsyncShareTheNextOne() throws Exception {
    HoldingForcer forcer = new HoldingForcer();
    Path file = Logs.eventsFile(root, "s");
    try (FileSessionStore store = FileSessionStore.open(root, forcer)) {
      persist(store, header("s"), log(1));
      forcer.count.set(0);
      forcer.hold.set(true);

      CompletableFuture<Void> leader = CompletableFuture.runAsync(() -> persist(store, header("s"), log(2)), pool);
      assertThat(forcer.entered.await(10, TimeUnit.SECONDS)).isTrue();

      List<CompletableFuture<Void>> followers = new ArrayList<>();
      for (int size = 3; size <= 8; size++) {
        int n = size;
        followers.add(CompletableFuture.runAsync(() -> persist(store, header("s"), log(n)), pool));
      }
      // every follower's events are written while the leader's fsync is still held
      await().atMost(Duration.ofSeconds(10)).until(() -> Logs.storedEvents(file) == 8);
      assertThat(followers).noneMatch(CompletableFuture::isDone);
      assertThat(leader).isNotDone();

      forcer.release.countDown();
      leader.get(10, TimeUnit.SECONDS);
      CompletableFuture.allOf(followers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

      assertThat(forcer.count.get()).as("the held fsync plus one fsync for all six followers").isEqualTo(2);
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(8));
    }
  }

  @Test
  void sequentialPersistsForceOnceEachAndUnchangedLogsNotAtAll() {
    HoldingForcer forcer = new HoldingForcer();
    try (FileSessionStore store = FileSessionStore.open(root, forcer)) {
      persist(store, header("s"), log(1));
      forcer.count.set(0);
      for (int n = 2; n <= 6; n++) {
        persist(store, header("s"), log(n));
      }
      assertThat(forcer.count.get()).isEqualTo(5);
      persist(store, header("s"), log(6));
      persist(store, header("s"), log(6));
      assertThat(forcer.count.get()).isEqualTo(5);
    }
  }

  @Test
  void theFsyncHookSeesEveryFsyncOnceAndNothingAfterItsRemovalOrWithoutSync() {
    HoldingForcer forcer = new HoldingForcer();
    AtomicInteger seen = new AtomicInteger();
    try (FileSessionStore store = FileSessionStore.open(root, forcer)) {
      var hook = store.onFsync(seen::incrementAndGet);
      var failing = store.onFsync(() -> {
        throw new IllegalStateException("a broken observer");
      });
      persist(store, header("s"), log(1));
      assertThat(seen.get()).as("creation: every fsync the seam made").isEqualTo(forcer.count.get()).isPositive();
      int before = seen.get();
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(2));
      assertThat(seen.get()).as("one fsync for a new line, none for an unchanged log").isEqualTo(before + 1);
      hook.close();
      failing.close();
      persist(store, header("s"), log(3));
      assertThat(seen.get()).isEqualTo(before + 1);
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
    AtomicInteger unsynced = new AtomicInteger();
    try (FileSessionStore store = FileSessionStore.open(root.resolve("never"), SyncMode.NEVER)) {
      var unused = store.onFsync(unsynced::incrementAndGet);
      persist(store, header("t"), log(2));
    }
    assertThat(unsynced.get()).as("SyncMode.NEVER forces nothing").isZero();
    // the public opens map SyncMode.ALWAYS to real fsyncs, with a due index or without
    AtomicInteger synced = new AtomicInteger();
    try (FileSessionStore store = FileSessionStore.open(root.resolve("always"), SyncMode.ALWAYS)) {
      var unused = store.onFsync(synced::incrementAndGet);
      persist(store, header("u"), log(2));
    }
    assertThat(synced.get()).as("SyncMode.ALWAYS forces the creation and the line").isGreaterThanOrEqualTo(2);
    AtomicInteger indexed = new AtomicInteger();
    try (FileSessionStore store = FileSessionStore.open(root.resolve("indexed"), SyncMode.ALWAYS, header -> events -> java.util.OptionalLong.empty())) {
      var unused = store.onFsync(indexed::incrementAndGet);
      persist(store, header("v"), log(2));
    }
    assertThat(indexed.get()).as("SyncMode.ALWAYS with a due index").isGreaterThanOrEqualTo(2);
  }

  @Test
  void openingAStoredSessionForcesWhatItRead() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      persist(store, header("s"), log(3));
    }
    HoldingForcer forcer = new HoldingForcer();
    try (FileSessionStore store = FileSessionStore.open(root, forcer)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
      assertThat(forcer.count.get()).as("lines an unforced writer left are made durable before they are read").isEqualTo(1);
    }
  }

  @Test
  void aCreationThatFailsHalfwayIsRolledBackAndCanBeRetried() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    // creation forces: root folder, session folder, events, header temp file; fail the header
    Forcer failingHeader = channel -> {
      if (calls.incrementAndGet() == 4) {
        throw new IOException("header write lost");
      }
    };
    try (FileSessionStore store = FileSessionStore.open(root, failingHeader)) {
      assertThat(store.persist(header("s"), log(3)).toCompletableFuture())
          .failsWithin(Duration.ZERO)
          .withThrowableThat()
          .withMessageContaining("cannot create session s")
          .withMessageContaining("header write lost");
      assertThat(store.ids()).isEmpty();
      assertThat(Files.size(Logs.eventsFile(root, "s"))).as("the events line was cut off again").isZero();
      persist(store, header("s"), log(3));
    }
    assertThat(Logs.lines(Logs.eventsFile(root, "s"))).hasSize(1);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void closingTheStoreDuringAnFsyncFailsThatPersist() throws Exception {
    HoldingForcer forcer = new HoldingForcer();
    FileSessionStore store = FileSessionStore.open(root, forcer);
    persist(store, header("s"), log(1));
    forcer.hold.set(true);
    CompletableFuture<Void> held = CompletableFuture.runAsync(() -> persist(store, header("s"), log(2)), pool);
    assertThat(forcer.entered.await(10, TimeUnit.SECONDS)).isTrue();
    store.close();
    forcer.release.countDown();
    assertThat(held)
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableThat()
        .withRootCauseInstanceOf(ClosedChannelException.class)
        .withMessageContaining("cannot force");
    try (FileSessionStore again = FileSessionStore.open(root)) {
      // the line was written before the close, so it may be there; the acknowledged event is
      assertThat(again.load("s").orElseThrow().events()).startsWith(Logs.event(0));
    }
  }

  @Test
  void aFailedFsyncFailsThePersistAndEveryLaterOne() {
    AtomicBoolean fail = new AtomicBoolean();
    Forcer failing = channel -> {
      if (fail.get()) {
        throw new IOException("device gone");
      }
    };
    try (FileSessionStore store = FileSessionStore.open(root, failing)) {
      persist(store, header("s"), log(1));
      fail.set(true);
      assertThat(store.persist(header("s"), log(2)).toCompletableFuture())
          .failsWithin(Duration.ZERO)
          .withThrowableThat()
          .withCauseInstanceOf(SessionStoreException.class)
          .withMessageContaining("cannot force")
          .withMessageContaining("device gone");
      fail.set(false);
      assertThat(store.persist(header("s"), log(3)).toCompletableFuture())
          .failsWithin(Duration.ZERO)
          .withThrowableThat()
          .withMessageContaining("session s refuses writes after an I/O failure");
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      // the unforced line was written, so after reopen it may be there; what was acknowledged is
      assertThat(store.load("s").orElseThrow().events()).startsWith(log(1).toArray(new SessionEvent[0]));
      persist(store, header("s"), log(3));
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }
}
