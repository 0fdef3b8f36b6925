/**
 * Invariant companions: the same policies that fold a session log, applied to existing logs and to
 * every candidate event before it is appended, so a bug can never write an event the library would
 * later refuse to read (host contract §10).
 *
 * <p>One companion per capability, each a thin adapter over that capability's own pure rules:
 *
 * <ul>
 *   <li>{@link dev.horae.invariant.ScheduleCompanion} folds the owned suffix with {@code
 *       seedLength} (schedule spec §13);
 *   <li>{@link dev.horae.invariant.TimeContextCompanion} checks every plugin-attributed reading
 *       against the log prefix before it, in both text forms (time-context spec §11);
 *   <li>{@link dev.horae.invariant.GateCompanion} checks {@code gate/commit} run facts: commit
 *       validity, gap-free sequences and terminal-is-final (gate spec §5);
 *   <li>{@link dev.horae.invariant.JobsCompanion} checks job snapshots at installation and at
 *       every settlement (jobs spec §2.15).
 * </ul>
 *
 * <p>{@link dev.horae.invariant.Companions} registers them all on a host; {@link
 * dev.horae.invariant.SessionLogCheck} runs the log companions offline over a whole stored log and
 * reports every violation with its event {@code seq}. Everything here is pure apart from the
 * registrations a caller asks for: no clock, no thread, no I/O, no logging.
 */
@NullMarked
package dev.horae.invariant;

import org.jspecify.annotations.NullMarked;
