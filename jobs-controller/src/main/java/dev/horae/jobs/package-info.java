/**
 * Background jobs for models: the local job registry, the {@code tool-jobs} controller plugin and
 * the pure texts and UTF-8 bounding they render with.
 *
 * <ul>
 *   <li>{@link dev.horae.jobs.LocalJobService} — the in-memory provider of the host's {@link
 *       dev.horae.spi.jobs.JobService} seam: preflight, admission, session fence, consuming reads,
 *       kill, waits, settlement order, scope-chain routing, owner and service teardown.
 *   <li>{@link dev.horae.jobs.JobsController} — the plugin: {@code job_output}, {@code job_list},
 *       {@code job_kill}, completion notices (inject / follow-up with a consecutive-wake budget,
 *       or quiet), producer output caps, the {@code tool:jobs} system-prompt section. Install it
 *       unscoped, or {@link dev.horae.jobs.JobsController#mount mount} it once per preset scope.
 *   <li>{@link dev.horae.jobs.JobTexts}, {@link dev.horae.jobs.Utf8Bounds} and {@link
 *       dev.horae.jobs.JobsControllerConfig} — pure functions backing the conformance catalogue's
 *       {@code jobs.*} functions.
 * </ul>
 *
 * <p>The snapshot invariant companion (jobs spec §2.15) is not here: it guards any host's {@link
 * dev.horae.spi.jobs.JobService}, so it lives with the other companions as {@code
 * dev.horae.invariant.JobsCompanion}, owner {@code dev.horae.invariant.Owners#JOBS}.
 *
 * <p>Typical wiring: {@code host.provide(JobService.class, LocalJobService.create(host))} (the
 * registry is a host-bound service, not a plugin), then {@code
 * host.install(JobsController.create())}; producers such as {@link dev.horae.jobs.shell.ShellJobs}
 * (or the {@link dev.horae.jobs.shell.BackgroundShellTool} plugin) then start jobs owned by the
 * calling agent.
 */
@NullMarked
package dev.horae.jobs;

import org.jspecify.annotations.NullMarked;
