package dev.horae.testkit.agent;

/**
 * The model a testkit agent's turn loop asks at each step. Implementations must be deterministic
 * for tests: {@link ScriptedModel} replays a script; a host demo may decide from the request.
 */
@FunctionalInterface
public interface Model {

  /**
   * Answers one step.
   *
   * @param request the step's entered user messages and position
   * @return the reply
   */
  ModelReply reply(ModelRequest request);
}
