package dev.horae.spi.jobs;

import dev.horae.spi.agent.Agent;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * A plain completion listener (jobs spec §2.12). Every listener on the owner's layers sees each
 * settlement, global layer first. Exceptions and failed stages are contained and logged; returned
 * stages are not awaited.
 */
@FunctionalInterface
public interface JobDoneListener {

  /**
   * A job settled.
   *
   * @param snapshot the committed terminal record
   * @param owner the exact owner object given at start, even if since replaced; empty if unowned
   * @return a stage whose failure is logged; it is not awaited
   */
  CompletionStage<?> onJobDone(JobSnapshot snapshot, Optional<Agent> owner);

  /**
   * Adapts a synchronous callback.
   *
   * @param callback the callback
   * @return a listener that runs it and returns a completed stage
   */
  static JobDoneListener sync(BiConsumer<JobSnapshot, Optional<Agent>> callback) {
    return (snapshot, owner) -> {
      callback.accept(snapshot, owner);
      return CompletableFuture.completedFuture(Boolean.TRUE);
    };
  }
}
