package dev.horae.spi.agent;

import dev.horae.spi.AbortSignal;
import java.util.concurrent.CompletionStage;

/**
 * Work run while holding an idle agent's maintenance claim (host contract §5.3).
 *
 * @param <T> the task's result
 */
@FunctionalInterface
public interface MaintenanceTask<T> {

  /**
   * Runs the task. Invoked before {@code runMaintenance} returns.
   *
   * @param signal fires if the agent is disposed
   * @return a stage; the claim is released when it completes
   */
  CompletionStage<T> run(AbortSignal signal);
}
