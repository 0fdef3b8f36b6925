/**
 * Agents of the testkit host (host contract §5, §6): the registry with created and status events,
 * agents with real phase rules (turn, maintenance, idle), latched wake-ups, an idle wait that
 * follows replacement work and can be held or failed, recorded follow-ups, injections and
 * withdrawals, and a deterministic turn loop over a {@link dev.horae.testkit.agent.ScriptedModel}.
 *
 * <p>Drivers never run on the waking thread: the registry hands them to an executor. Tests use a
 * {@link dev.horae.testkit.agent.DriverQueue} that they drain, so every run is deterministic; a
 * live host passes a real executor.
 */
@NullMarked
package dev.horae.testkit.agent;

import org.jspecify.annotations.NullMarked;
