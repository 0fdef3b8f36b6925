package dev.horae.schedule.tools;

/**
 * A diagnostic snapshot of one agent's live owner (spec §12.1).
 *
 * @param requests how many recompute requests it received (including ignored ones)
 * @param flushes how many preflight and dispatch-barrier flushes it issued
 * @param faulted whether it stopped for good after a failed run, a corrupt fold or a vetoed
 *     dispatch append
 * @param timerArmed whether a timer is armed
 * @param idleWaiting whether an idle wait is outstanding
 * @param stopping whether disposal began
 */
public record OwnerState(
    long requests,
    long flushes,
    boolean faulted,
    boolean timerArmed,
    boolean idleWaiting,
    boolean stopping) {}
