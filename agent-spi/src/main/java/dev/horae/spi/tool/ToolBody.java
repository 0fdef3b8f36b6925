package dev.horae.spi.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletionStage;

/** A tool's body. A throw or failed stage becomes an error result {@code Error: <message>}. */
@FunctionalInterface
public interface ToolBody {

  /**
   * Executes the tool.
   *
   * @param args validated arguments (unknown top-level members included)
   * @param exec calling agent, call id and cancellation signal
   * @return the canonical output value
   */
  CompletionStage<JsonNode> execute(JsonNode args, ToolExecution exec);
}
