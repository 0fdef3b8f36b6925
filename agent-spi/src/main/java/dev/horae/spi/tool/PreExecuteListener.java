package dev.horae.spi.tool;

/** Runs before argument validation of every call (host contract §8.2 step 1). */
@FunctionalInterface
public interface PreExecuteListener {

  /**
   * Sees the call before any policy runs.
   *
   * @param invocation the agent and its call
   */
  void beforeExecute(ToolInvocation invocation);
}
