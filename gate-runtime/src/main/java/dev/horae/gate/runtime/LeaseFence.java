package dev.horae.gate.runtime;

/**
 * The dispatch claim a commit made during a claimed attempt must still hold (gate specification
 * §12.5.3).
 *
 * @param runId the claimed Run
 * @param threadId its thread
 * @param owner the claiming dispatcher
 * @param epoch the claim's epoch
 */
public record LeaseFence(String runId, String threadId, String owner, long epoch) {}
