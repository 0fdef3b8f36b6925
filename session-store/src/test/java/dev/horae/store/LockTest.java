package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** One writer per session: a second opener, in this JVM or another process, gets a clear error. */
class LockTest {

  @TempDir Path root;
  @TempDir Path scratch;

  @Test
  void aSecondStoreInThisJvmIsRefusedUntilTheFirstCloses() {
    String expected = "commit log " + root.resolve("s") + " is locked by another process";
    FileSessionStore first = FileSessionStore.open(root);
    try (FileSessionStore second = FileSessionStore.open(root)) {
      try (first) {
        persist(first, header("s"), log(2));
        assertThatThrownBy(() -> second.load("s"))
            .isInstanceOfSatisfying(CommitLogLockedException.class, e -> assertThat(e.dir()).isEqualTo(root.resolve("s")))
            .hasMessage(expected);
        assertThat(second.persist(header("s"), log(3)).toCompletableFuture())
            .failsWithin(Duration.ZERO)
            .withThrowableThat()
            .withCauseInstanceOf(CommitLogLockedException.class)
            .withMessageContaining(expected);
        // the refused opener must not have released the holder's lock on its way out
        assertThatThrownBy(() -> second.load("s")).isInstanceOf(CommitLogLockedException.class);
        persist(first, header("s"), log(4));
      }
      assertThat(second.load("s").orElseThrow().events()).isEqualTo(log(4));
    }
  }

  @Test
  void aPeekReadsALockedSessionWithoutTakingTheLockOrRepairingItsTornTail() throws Exception {
    try (FileSessionStore holder = FileSessionStore.open(root)) {
      persist(holder, header("s"), log(3));
      Path events = Logs.eventsFile(root, "s");
      byte[] before = java.nio.file.Files.readAllBytes(events);
      java.nio.file.Files.write(events, "0badc0de [{\"seq\":3".getBytes(java.nio.charset.StandardCharsets.UTF_8),
          java.nio.file.StandardOpenOption.APPEND);
      assertThat(FileSessionStore.peek(root, "s").orElseThrow().events()).isEqualTo(log(3));
      assertThat(java.nio.file.Files.size(events)).as("the torn tail is the holder's to cut").isGreaterThan(before.length);
      assertThat(FileSessionStore.peek(root, "nobody")).isEmpty();
      assertThat(FileSessionStore.peek(root, " ")).isEmpty();
      // the holder still has the lock: a second store is refused as before
      try (FileSessionStore second = FileSessionStore.open(root)) {
        assertThatThrownBy(() -> second.load("s")).isInstanceOf(CommitLogLockedException.class);
      }
    }
  }

  @Test
  void releasingOneSessionLetsAnotherStoreTakeIt() {
    try (FileSessionStore first = FileSessionStore.open(root); FileSessionStore second = FileSessionStore.open(root)) {
      persist(first, header("s"), log(2));
      persist(first, header("t"), log(1));
      assertThat(first.release("s")).isTrue();
      assertThat(first.release("s")).isFalse();
      assertThat(second.load("s").orElseThrow().events()).isEqualTo(log(2));
      assertThatThrownBy(() -> first.load("s")).isInstanceOf(CommitLogLockedException.class);
      assertThatThrownBy(() -> second.load("t")).isInstanceOf(CommitLogLockedException.class);
      persist(second, header("s"), log(3));
    }
  }

  @Test
  // longer than the build's 60 s default: a child JVM starts and is awaited for up to 60 s, which
  // a loaded 2-core machine can need
  @Timeout(120)
  void aSessionHeldByAnotherProcessIsRefusedUntilItLetsGo() throws Exception {
    Path err = scratch.resolve("holder.err");
    Process holder = ChildJvm.start(LockHolder.class, err, root.toString(), "s");
    try (BufferedReader out = ChildJvm.stdout(holder);
        FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(out.readLine()).as(() -> "holder stderr: " + ChildJvm.stderr(err)).isEqualTo("locked");
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOf(CommitLogLockedException.class)
          .hasMessage("commit log " + root.resolve("s") + " is locked by another process");
      assertThat(store.ids()).containsExactly("s");

      holder.getOutputStream().close();
      assertThat(out.readLine()).isEqualTo("released");
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(2));
      persist(store, header("s"), log(3));
    } finally {
      holder.destroyForcibly();
    }
  }
}
