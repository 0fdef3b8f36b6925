/**
 * The {@code bash} job kind: {@link dev.horae.jobs.shell.ShellJobs} starts shell commands as
 * stream jobs of the job registry, with combined stdout/stderr, bounded output retention ({@link
 * dev.horae.jobs.shell.OutputWindow}, pure) and process-tree cancellation.
 */
@NullMarked
package dev.horae.jobs.shell;

import org.jspecify.annotations.NullMarked;
