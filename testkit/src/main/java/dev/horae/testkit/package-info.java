/**
 * The in-memory reference host. {@link dev.horae.testkit.TestHost} assembles every seam of the
 * host contract — sessions with a scriptable durable store and fault injection, agents with real
 * phase rules and a deterministic turn loop, the tool registry with schema validation, the
 * tool-gate chain, the invariant service, a manual clock with monotonic timers, a settable process
 * zone, deterministic ids and a capturing warning sink — so plugins can be tested without a real
 * model, disk or time.
 *
 * <p>Typical use:
 *
 * <pre>{@code
 * TestHost host = TestHost.builder().start(Instant.parse("2026-08-05T12:00:00Z")).build();
 * host.install(myPlugin);
 * TestAgent agent = host.createAgent();
 * agent.useModel(new ScriptedModel().thenCall("schedule_list", Json.parse("{}")).thenText("done"));
 * host.prompt(agent, "what is scheduled?");
 * host.settle();
 * }</pre>
 */
@NullMarked
package dev.horae.testkit;

import org.jspecify.annotations.NullMarked;
