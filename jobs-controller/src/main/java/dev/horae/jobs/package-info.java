/**
 * The {@code tool-jobs} controller plugin (jobs spec §3–§6, docs/reference/jobs.md) and the pure
 * texts and UTF-8 bounding it renders with.
 *
 * <ul>
 *   <li>{@link dev.horae.jobs.JobsController} — the plugin: {@code job_output}, {@code job_list},
 *       {@code job_kill} (§3), completion notices (inject / follow-up with a consecutive-wake
 *       budget, or quiet, §4), producer output caps (§5.1), the {@code tool:jobs} system-prompt
 *       section (§6). Install it unscoped, or {@link dev.horae.jobs.JobsController#mount mount}
 *       it once per preset scope.
 *   <li>{@link dev.horae.jobs.JobTexts}, {@link dev.horae.jobs.Utf8Bounds} and {@link
 *       dev.horae.jobs.JobsControllerConfig} — pure functions backing the conformance catalogue's
 *       {@code jobs.*} functions (§3.2–§3.7, §4.2, §5, §11).
 * </ul>
 *
 * <p>The controller talks to the host's job registry only through the {@link
 * dev.horae.spi.jobs.JobService} seam; the library's own registry is {@link
 * dev.horae.jobs.registry.LocalJobService}, the {@code bash} kind is {@link
 * dev.horae.jobs.shell}. The snapshot invariant companion (§2.15) guards any host's {@link
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
