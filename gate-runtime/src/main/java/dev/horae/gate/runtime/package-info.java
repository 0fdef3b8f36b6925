/**
 * The run engine of the gate contract (gate specification §5–§9, §13): {@link
 * dev.horae.gate.runtime.AgentRuntime} drives a Run over a host-supplied inference port and tool
 * executor, passes every tool call through the gate chain, and records every transition as an
 * atomic {@link dev.horae.gate.runtime.ThreadCommit} through one finish boundary.
 *
 * <p>Committed truth lives in the session log: {@link dev.horae.gate.runtime.SessionCommitStore}
 * appends each commit atomically to the thread's session ({@code Session.appendAll}) and serves
 * the {@link dev.horae.gate.runtime.CommittedThreadView} as a fold of that log, so a new process
 * rediscovers awaiting tickets by reading it. Tickets have power only once committed; perform and
 * resume read them only from the committed view, and every transition is a compare-and-append on
 * the Run's head, so of two racing performs exactly one runs the tool.
 *
 * <p>{@link dev.horae.gate.runtime.ScheduledActionDispatcher} is the in-process caller that
 * performs committed scheduled actions, chained ones in the same pass. {@link
 * dev.horae.gate.runtime.DurableDispatcher} is the durable one (§12.5): it claims records of a
 * {@link dev.horae.gate.runtime.DispatchQueue} under leases with epochs, and every commit of a
 * claimed attempt is fenced by its claim; {@link dev.horae.gate.runtime.InMemoryDispatchQueue} and
 * {@link dev.horae.gate.runtime.SessionDispatchQueue} (dispatch facts as {@code gate/dispatch}
 * events of the same session log) and {@link dev.horae.gate.runtime.JdbcDispatchQueue} (records
 * and inbox in PostgreSQL tables, over plain JDBC) implement the queue, each paired with the
 * commit store whose commit step runs its outbox and fence. The dispatcher waits on a {@link
 * dev.horae.gate.runtime.WakeSignal}: in process, or {@link dev.horae.gate.runtime.PgWakeSignal},
 * which listens for the notifications the PostgreSQL queue sends (§12.5.7).
 */
@NullMarked
package dev.horae.gate.runtime;

import org.jspecify.annotations.NullMarked;
