/**
 * The host scenario TCK: {@code scenario} cases that set up a host, run steps on it (clock,
 * agents, tool calls, persistence faults, restart, fork, ...) and check tool results, queued
 * follow-ups and injections, and the session log. The format is documented in {@code
 * docs/conformance.md}.
 *
 * <p>{@link dev.horae.conformance.scenario.ScenarioRunner} runs the cases on any host that
 * implements {@link dev.horae.conformance.scenario.ScenarioHost}; {@link
 * dev.horae.conformance.scenario.TestkitScenarioHosts} binds it to the in-memory reference host
 * of {@code testkit}. A host author implements {@link
 * dev.horae.conformance.scenario.ScenarioHosts} for their own host and passes it to the runner
 * (or names it with {@code --host} on the command line).
 */
@NullMarked
package dev.horae.conformance.scenario;

import org.jspecify.annotations.NullMarked;
