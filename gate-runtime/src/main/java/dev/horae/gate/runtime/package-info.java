/**
 * The API of the gate contract's durable machinery (gate specification §5–§9, §12, §13) that a
 * turn engine builds on — the production one is the {@code runtime} module's: every transition of
 * a Run is recorded as an atomic {@link dev.horae.gate.runtime.ThreadCommit}. This package is what
 * an embedder or an operator touches: the dispatcher, its queues, options and wake signals, the
 * commit store and its view, the commit types, the records and claims, and the errors. The commit
 * machinery the engine alone uses — a Run's tool batch and its phases, the wire codec of commits —
 * lives in {@code dev.horae.gate.runtime.internal}, which is not API.
 *
 * <p>Committed truth lives in the session log: {@link dev.horae.gate.runtime.SessionCommitStore}
 * appends each commit atomically to the thread's session ({@code Session.appendAll}) and serves
 * the {@link dev.horae.gate.runtime.CommittedThreadView} as a fold of that log, so a new process
 * rediscovers awaiting tickets by reading it. Tickets have power only once committed; perform and
 * resume read them only from the committed view, and every transition is a compare-and-append on
 * the Run's head, so of two racing performs exactly one runs the tool.
 *
 * <p>{@link dev.horae.gate.runtime.DurableDispatcher} performs committed scheduled actions
 * durably across nodes (§12.5) through a {@link dev.horae.gate.runtime.DispatchTarget}: it claims records of a
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
