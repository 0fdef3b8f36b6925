/**
 * The operator command line {@code horae} ({@link dev.horae.cli.Horae}): read-only views of a
 * file store folder or a PostgreSQL store (sessions, reminders, awaiting runs, job notices, the
 * invariant check, a log tail) and the answers to parked calls ({@code approve}, {@code deny})
 * through the runtime's own resume path, with the application's tools and model supplied by an
 * {@link dev.horae.cli.OperatorSetup}, and the web console {@code horae console} serves (package {@code
 * dev.horae.cli.console}). Commands, output and exit codes: {@code docs/operations.md}.
 */
@NullMarked
package dev.horae.cli;

import org.jspecify.annotations.NullMarked;
