package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.Forcer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules of the file store that the other suites leave implicit: what an open must clean up or
 * refuse before the first write, that a failed open leaves the session openable, that the caller's
 * interrupt survives an open, that a log of the stored length must still continue the stored log,
 * and that a persist refused after a failed fsync writes nothing.
 */
class FileStoreRulesTest {

  @TempDir Path root;
  @TempDir Path scratch;

  private Path eventsFile(String id) {
    return Logs.eventsFile(root, id);
  }

  @Test
  void theFirstFlushOfASessionIsLoadableFromTheSameStoreAtOnce() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void anUnacknowledgedFirstFlushLongerThanTheNextOneIsCutOffBeforeItIsOverwritten() throws Exception {
    // a killed first flush left a long line and more after it, but no header: nothing was acknowledged
    Path dir = Files.createDirectories(root.resolve("ghost"));
    String leftover = "deadbeef [" + "x".repeat(600) + "\n" + "0badf00d [" + "y".repeat(40) + "\n";
    Files.writeString(dir.resolve("events.log"), leftover, StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("ghost"), log(1));
    }
    assertThat(Logs.lines(eventsFile("ghost"))).hasSize(1);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("ghost").orElseThrow().events()).isEqualTo(log(1));
    }
  }

  @Test
  void aFlushLongerThanTheReadBufferReplaysWhole() throws Exception {
    List<SessionEvent> log = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      log.add(SessionEvent.of(i, "test/big", i, Json.parse("{\"pad\":\"" + "p".repeat(50_000) + "\"}")));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log);
    }
    // one line of about 150 KB, over twice the scanner's first 64 KiB line buffer
    assertThat(Logs.lines(eventsFile("s"))).singleElement().satisfies(l -> assertThat(l.length()).isGreaterThan(150_000));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log);
    }
  }

  @Test
  void aHeaderThatNamesAnotherSessionIsRefused() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("a"), log(1));
    }
    Path copy = Files.createDirectories(root.resolve("b"));
    Files.copy(root.resolve("a").resolve("header.json"), copy.resolve("header.json"));
    Files.copy(eventsFile("a"), copy.resolve("events.log"));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("b"))
          .isInstanceOf(SessionStoreException.class)
          .hasMessage("session header " + copy.resolve("header.json") + " names session a, not b");
      assertThat(store.load("a").orElseThrow().events()).isEqualTo(log(1));
    }
  }

  @Test
  void aFailedOpenReleasesTheSessionSoItCanBeOpenedOnceRepaired() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(3));
    }
    Path file = eventsFile("s");
    List<String> lines = Logs.lines(file);
    String good = lines.get(0);
    Files.writeString(file, "00000000 []\n" + lines.get(1) + "\n", StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(root); FileSessionStore other = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s")).isInstanceOf(CommitLogCorruptException.class);
      // neither this store nor another one in the process is locked out by the failed open
      assertThatThrownBy(() -> store.load("s")).isInstanceOf(CommitLogCorruptException.class);
      assertThatThrownBy(() -> other.load("s")).isInstanceOf(CommitLogCorruptException.class);
      Files.writeString(file, good + "\n" + lines.get(1) + "\n", StandardCharsets.UTF_8);
      assertThat(other.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void theCallersInterruptSurvivesOpeningASession() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      boolean interrupted;
      List<SessionEvent> loaded;
      Thread.currentThread().interrupt();
      try {
        loaded = store.load("s").orElseThrow().events();
      } finally {
        interrupted = Thread.interrupted();
      }
      assertThat(loaded).isEqualTo(log(2));
      assertThat(interrupted).isTrue();
    }
  }

  @Test
  void aBadLineFollowedByAnUnterminatedOneIsCorruptionNotATornTail() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(3));
    }
    Path file = eventsFile("s");
    List<String> lines = Logs.lines(file);
    long size = Files.size(file);
    // the second line damaged, then the start of a third one without its newline
    Files.writeString(file, lines.get(0) + "\n" + lines.get(1).replace("event 2", "event 9") + "\n" + "0000", StandardCharsets.UTF_8);
    long damaged = Files.size(file);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOfSatisfying(CommitLogCorruptException.class, e -> assertThat(e.line()).isEqualTo(2));
    }
    assertThat(Files.size(file)).isEqualTo(damaged).isNotEqualTo(size);
  }

  @Test
  void anInterruptThatClosesTheFileDuringAPersistIsKeptForTheCaller() {
    AtomicBoolean interruptOnce = new AtomicBoolean();
    Forcer interrupting = channel -> {
      if (interruptOnce.getAndSet(false)) {
        // an interrupt arriving during the fsync: FileChannel closes itself and throws
        Thread.currentThread().interrupt();
      }
      channel.force(false);
    };
    try (FileSessionStore store = FileSessionStore.open(root, interrupting)) {
      persist(store, header("s"), log(1));
      interruptOnce.set(true);
      boolean interrupted;
      try {
        persist(store, header("s"), log(3));
      } finally {
        interrupted = Thread.interrupted();
      }
      assertThat(interrupted).isTrue();
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
    }
  }

  @Test
  void aLogOfTheStoredLengthWhoseLastEventDiffersIsRefused() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(3));
      List<SessionEvent> other = new ArrayList<>(log(3));
      other.set(2, SessionEvent.of(2, "other/type", 7, Json.parse("{}")));
      assertThat(store.persist(header("s"), other).toCompletableFuture())
          .failsWithin(Duration.ZERO)
          .withThrowableThat()
          .withCauseInstanceOf(IllegalArgumentException.class)
          .withMessageContaining("does not continue the stored log: seq 2 is stored as test/event@1700000000002"
              + " but given as other/type@7");
    }
  }

  @Test
  void aPersistRefusedAfterAFailedFsyncWritesNothing() throws Exception {
    AtomicBoolean fail = new AtomicBoolean();
    Forcer failing = channel -> {
      if (fail.get()) {
        throw new IOException("device gone");
      }
    };
    try (FileSessionStore store = FileSessionStore.open(root, failing)) {
      persist(store, header("s"), log(1));
      fail.set(true);
      assertThat(store.persist(header("s"), log(2)).toCompletableFuture()).isCompletedExceptionally();
      fail.set(false);
      long size = Files.size(eventsFile("s"));
      assertThat(store.persist(header("s"), log(4)).toCompletableFuture())
          .failsWithin(Duration.ZERO)
          .withThrowableThat()
          .withMessageContaining("session s refuses writes after an I/O failure");
      assertThat(Files.size(eventsFile("s"))).isEqualTo(size);
    }
  }

  @Test
  // longer than the build's 60 s default: a child JVM starts and is awaited for up to 60 s, which
  // a loaded 2-core machine can need
  @Timeout(120)
  void aSecondOpenerInThisJvmDoesNotDropTheLockAnotherProcessWouldSee() throws Exception {
    try (FileSessionStore holder = FileSessionStore.open(root); FileSessionStore second = FileSessionStore.open(root)) {
      persist(holder, header("s"), log(2));
      assertThatThrownBy(() -> second.load("s")).isInstanceOf(CommitLogLockedException.class);
      // on POSIX, closing any channel of the lock file drops the process's lock: the refused opener
      // must never have opened one, or another process could now write the session
      Path err = scratch.resolve("probe.err");
      Process probe = ChildJvm.start(LockProbe.class, err, root.toString(), "s");
      try (BufferedReader out = ChildJvm.stdout(probe)) {
        assertThat(out.readLine()).as(() -> "probe stderr: " + ChildJvm.stderr(err)).isEqualTo("locked out");
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
      } finally {
        probe.destroyForcibly();
      }
      persist(holder, header("s"), log(3));
    }
  }
}
