package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.RunState;

/**
 * Receives best-effort live facts and terminal notifications. Neither is authority: only the
 * commit is. A listener that throws is ignored; it never changes a Run.
 */
public interface RunListener {

  /**
   * A live event: {@code awaiting{runId, pendingToolUseId, reason}}, {@code runFailed{runId, code,
   * message}} or {@code runFinished{runId, state}}.
   *
   * @param event the event
   */
  default void onEvent(JsonNode event) {}

  /**
   * Delivered only after a successful {@code ended} commit (never for awaiting).
   *
   * @param runId the Run
   * @param state its terminal state
   */
  default void onTerminal(String runId, RunState state) {}

  /**
   * A listener that ignores everything.
   *
   * @return the listener
   */
  static RunListener none() {
    return new RunListener() {};
  }
}
