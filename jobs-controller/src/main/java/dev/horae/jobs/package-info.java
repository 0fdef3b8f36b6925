/**
 * Background jobs for models: the local job registry, the {@code tool-jobs} controller plugin
 * ({@code job_output}, {@code job_list}, {@code job_kill}, completion notices with a bounded wake
 * budget) and the pure texts and UTF-8 bounding they render with.
 *
 * <p>{@link dev.horae.jobs.JobTexts}, {@link dev.horae.jobs.Utf8Bounds} and {@link
 * dev.horae.jobs.JobsControllerConfig} are pure functions of their arguments; they back the
 * conformance catalogue's {@code jobs.*} functions.
 */
@NullMarked
package dev.horae.jobs;

import org.jspecify.annotations.NullMarked;
