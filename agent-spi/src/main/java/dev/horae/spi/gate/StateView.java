package dev.horae.spi.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The read-only view of the Run a gate may consult while deciding (gate specification §1.1). It
 * reflects the Run's committed state as of the moment the call is gated; a gate cannot change it.
 */
public interface StateView {

  /**
   * The Run that issued the call.
   *
   * @return the run id
   */
  String runId();

  /**
   * The thread (session) the Run commits to.
   *
   * @return the thread id
   */
  String threadId();

  /**
   * The 1-based inference step of the Run that issued the call.
   *
   * @return the step number
   */
  int step();

  /**
   * A committed Run-scoped state value, such as the active tool batch.
   *
   * @param key the state key
   * @return the value, or empty when the key holds nothing
   */
  Optional<JsonNode> state(String key);
}
