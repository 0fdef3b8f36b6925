/**
 * The {@code bash} job kind (jobs spec §7, docs/reference/jobs.md): {@link
 * dev.horae.jobs.shell.ShellJobs} starts shell commands as stream jobs of the job registry, with
 * combined stdout/stderr, bounded output retention ({@link dev.horae.jobs.shell.OutputWindow},
 * pure) and process-tree cancellation. It starts jobs through the {@link
 * dev.horae.spi.jobs.JobService} seam only, never through the local registry's classes.
 */
@NullMarked
package dev.horae.jobs.shell;

import org.jspecify.annotations.NullMarked;
