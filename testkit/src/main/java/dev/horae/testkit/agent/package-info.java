/**
 * Agents of the testkit host: {@link dev.horae.testkit.agent.TestAgent} is the runtime's agent
 * (host contract §5, §6) with test controls — held or failed idle waits, a failing maintenance
 * stage, a manual busy phase, counters and a record of the inbox — and
 * {@link dev.horae.testkit.agent.ScriptedModel} is a deterministic model port that records every
 * request it is shown.
 *
 * <p>Drivers never run on the waking thread: the registry hands them to an executor. Tests use a
 * {@link dev.horae.testkit.agent.DriverQueue} that they drain, so every run is deterministic.
 */
@NullMarked
package dev.horae.testkit.agent;

import org.jspecify.annotations.NullMarked;
