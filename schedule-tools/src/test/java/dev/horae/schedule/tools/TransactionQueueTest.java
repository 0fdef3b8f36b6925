package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.tools.internal.TransactionQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Spec §9.1, §16.9: the per-agent FIFO. */
class TransactionQueueTest {

  @Test
  void runsInSubmissionOrderOneAtATimeAndSurvivesFailures() {
    TransactionQueue q = new TransactionQueue();
    CompletableFuture<Void> gate = new CompletableFuture<>();
    List<Integer> order = new ArrayList<>();
    CompletionStage<Integer> first = q.submit(() -> gate.thenApply(v -> {
      order.add(0);
      return 0;
    }));
    CompletionStage<Integer> failing = q.submit(() -> {
      throw new IllegalStateException("boom");
    });
    List<CompletionStage<Integer>> rest = new ArrayList<>();
    for (int i = 1; i <= 100_000; i++) {
      int n = i;
      rest.add(q.submit(() -> {
        order.add(n);
        return CompletableFuture.completedFuture(n);
      }));
    }
    assertThat(order).isEmpty();
    // 100,000 synchronous transactions complete in a loop, not in nested callbacks
    gate.complete(null);
    assertThat(first.toCompletableFuture().join()).isZero();
    assertThat(failing.toCompletableFuture()).isCompletedExceptionally();
    assertThat(rest.get(rest.size() - 1).toCompletableFuture().join()).isEqualTo(100_000);
    assertThat(order).hasSize(100_001);
    for (int i = 0; i < order.size(); i++) {
      assertThat(order.get(i)).isEqualTo(i);
    }
  }

  @Test
  void aTransactionSubmittedFromInsideAnotherWaitsForIt() {
    TransactionQueue q = new TransactionQueue();
    List<String> order = new ArrayList<>();
    CompletableFuture<Void> barrier = new CompletableFuture<>();
    q.submit(() -> {
      order.add("outer start");
      q.submit(() -> {
        order.add("inner");
        return CompletableFuture.completedFuture(null);
      });
      return barrier.thenRun(() -> order.add("outer end"));
    });
    assertThat(order).containsExactly("outer start");
    barrier.complete(null);
    assertThat(order).containsExactly("outer start", "outer end", "inner");
  }
}
