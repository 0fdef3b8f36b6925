/**
 * The library's local job registry (jobs spec §2, docs/reference/jobs.md): {@link
 * dev.horae.jobs.registry.LocalJobService}, the in-memory provider of the host's {@link
 * dev.horae.spi.jobs.JobService} seam — preflight (§2.4), admission (§2.5), the session fence
 * (§2.6), consuming reads (§2.7), kill (§2.8), waits (§2.9), the reported bit (§2.10),
 * settlement order (§2.11), registrations and scope-chain routing (§2.12, §2.14), owner and
 * service teardown (§2.13) — and its configuration {@link
 * dev.horae.jobs.registry.JobServiceConfig} (§2.5).
 *
 * <p>The registry knows no controller and no producer: the {@code tool-jobs} controller ({@link
 * dev.horae.jobs.JobsController}) attaches to it through the seam, and producers such as the
 * {@code bash} kind ({@link dev.horae.jobs.shell.ShellJobs}) start jobs through the seam too.
 */
@NullMarked
package dev.horae.jobs.registry;

import org.jspecify.annotations.NullMarked;
