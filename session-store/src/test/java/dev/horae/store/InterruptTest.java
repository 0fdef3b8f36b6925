package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.store.internal.Forcer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interrupting a flushing thread must not close the session's file for everyone else. */
class InterruptTest {

  @TempDir Path root;

  @Test
  void anInterruptedCallerStillPersistsAndKeepsItsInterrupt() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(1));
      Thread.currentThread().interrupt();
      boolean stillInterrupted;
      try {
        persist(store, header("s"), log(3));
        assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(3));
      } finally {
        stillInterrupted = Thread.interrupted();
      }
      assertThat(stillInterrupted).isTrue();
      persist(store, header("s"), log(4));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(4));
    }
  }

  @Test
  void aChannelClosedByAnInterruptDuringTheFsyncIsReopened() {
    AtomicInteger closings = new AtomicInteger(0);
    AtomicInteger forces = new AtomicInteger();
    Forcer interruptedOnce = channel -> {
      forces.incrementAndGet();
      if (closings.getAndDecrement() > 0) {
        // what FileChannel does when its thread is interrupted inside force
        channel.close();
        throw new ClosedByInterruptException();
      }
      channel.force(false);
    };
    try (FileSessionStore store = FileSessionStore.open(root, interruptedOnce)) {
      persist(store, header("s"), log(2));
      // armed only now: creating the session also forces folders, which are not the event file
      closings.set(1);
      forces.set(0);
      persist(store, header("s"), log(5));
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5));
    }
    assertThat(forces.get()).as("the closed force was repeated on a reopened channel").isEqualTo(2);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5));
    }
  }
}
