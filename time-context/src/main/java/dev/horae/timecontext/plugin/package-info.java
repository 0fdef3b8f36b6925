/**
 * The time-context plugin: installs one prepended pre-step listener that adds a durable reading
 * to every eligible entered step (spec §2, §4).
 *
 * <p>{@link dev.horae.timecontext.plugin.TimeContextPlugin} takes a configuration validated when it
 * was built, reads the process zone once through the host's supplier at load when no {@code
 * timeZone} is configured, and registers the listener for its whole lifetime. The listener reads time only from the host's
 * injected wall clock and decides with the pure core in {@code dev.horae.timecontext}.
 */
@NullMarked
package dev.horae.timecontext.plugin;

import org.jspecify.annotations.NullMarked;
