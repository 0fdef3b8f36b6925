/**
 * Time context: durable readings of the zoned time and the elapsed time, added to each eligible
 * model step.
 *
 * <p>This package is the pure core. It reads no clock, starts no thread, does no I/O and does not
 * log; time is always an argument. Entry points, one per conformance function:
 *
 * <ul>
 *   <li>{@link dev.horae.timecontext.TimeFormats} — the timestamp and compact duration formats;
 *   <li>{@link dev.horae.timecontext.TimeContextConfig} — configuration validation with the exact
 *       load-time messages;
 *   <li>{@link dev.horae.timecontext.ClientZoneContext} — the client-zone context of a turn and its
 *       reading line, over the shared derivation {@link dev.horae.spi.zone.ClientZones};
 *   <li>{@link dev.horae.timecontext.TimeReadings} — the reading for one step (refresh gate,
 *       baselines, two-line and opt-in three-line text), over a whole log or a
 *       {@link dev.horae.timecontext.ReadingIndex};
 *   <li>{@link dev.horae.timecontext.ReadingInvariant} — the invariant rules for both forms;
 * </ul>
 *
 * <p>The time-context authority that Schedule consults before it accepts a local time without a
 * zone is not here: it joins this plugin's readings with the host's client zones and the session
 * header, so it lives below both plugins as {@link dev.horae.spi.zone.TimeContextAuthority}.
 * Readings written by {@link dev.horae.timecontext.ReadingMessages} are what it looks for.
 *
 * <p>The plugin that runs these before each step lives in {@code dev.horae.timecontext.plugin}.
 */
@NullMarked
package dev.horae.timecontext;

import org.jspecify.annotations.NullMarked;
