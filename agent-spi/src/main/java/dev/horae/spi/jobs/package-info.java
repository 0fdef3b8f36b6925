/**
 * The job registry seam of the host contract (jobs spec §2): one host-level registry of
 * background jobs shared by every producer and every mounted jobs controller.
 *
 * <p>The registry does not run work. A producer registers a job with {@link
 * dev.horae.spi.jobs.JobStart} and hands over {@link dev.horae.spi.jobs.JobHooks} (cancel, done,
 * and for stream jobs one consuming reader). Callers read, kill and wait through the session
 * fence; controllers and plain listeners learn about settlements through registrations filed in
 * the layer of a scope, and the registry routes each settlement to exactly one controller: the
 * nearest one on the owner's scope chain. Values here are immutable; ids are {@code
 * <kind>-<N>}; every failure is a {@link dev.horae.spi.jobs.JobsException} carrying the
 * specification's exact code and message.
 */
@NullMarked
package dev.horae.spi.jobs;

import org.jspecify.annotations.NullMarked;
