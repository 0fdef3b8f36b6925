package dev.horae.gate.runtime;

import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import java.util.Optional;

/**
 * The committed view of one Run: its latest fact.
 *
 * @param runId the Run
 * @param threadId its thread
 * @param state the latest committed state
 * @param headSequence the thread sequence of the Run's latest commit
 * @param ticket the active ticket, present exactly when the state is awaiting
 */
public record RunRecord(
    String runId, String threadId, RunState state, long headSequence, Optional<ResumeTicket> ticket) {}
