package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The in-process wake signal (gate specification §12.5.7). */
class WakeSignalTest {

  @Test
  void aHintPublishedBeforeAnyoneWaitsIsKeptAsOnePermit() {
    // WAKE-01
    WakeSignal w = WakeSignal.inProcess();
    w.publish();
    w.publish();
    assertThat(w.next().toCompletableFuture()).isDone();
    assertThat(w.next().toCompletableFuture()).as("repeated hints add no second permit").isNotDone();
  }

  @Test
  void aWaiterIsWokenByTheNextHintAndTheHintIsNotKeptTwice() {
    WakeSignal w = WakeSignal.inProcess();
    CompletableFuture<Void> waiting = w.next().toCompletableFuture();
    assertThat(waiting).isNotDone();
    w.publish();
    assertThat(waiting).isDone();
    assertThat(w.next().toCompletableFuture()).as("the hint went to the waiter").isNotDone();
  }
}
