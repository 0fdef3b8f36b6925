/**
 * Time context: durable readings of the zoned time and the elapsed time, added to each eligible
 * model step, and the time-context authority other components read from the log.
 *
 * <p>This package is the pure core. It reads no clock, starts no thread, does no I/O and does not
 * log; time is always an argument. Entry points, one per conformance function:
 *
 * <ul>
 *   <li>{@link dev.horae.timecontext.TimeFormats} — the timestamp and compact duration formats;
 *   <li>{@link dev.horae.timecontext.TimeContextConfig} — configuration validation with the exact
 *       load-time messages;
 *   <li>{@link dev.horae.timecontext.ClientZones} — the client-zone derivation;
 *   <li>{@link dev.horae.timecontext.TimeReadings} — the reading for one step (refresh gate,
 *       baselines, two-line and opt-in three-line text), over a whole log or a
 *       {@link dev.horae.timecontext.ReadingIndex};
 *   <li>{@link dev.horae.timecontext.ReadingInvariant} — the invariant rules for both forms;
 *   <li>{@link dev.horae.timecontext.TimeContextAuthority} — the authority Schedule consults before
 *       it accepts a local time without a zone.
 * </ul>
 *
 * <p>The plugin that runs these before each step lives in {@code dev.horae.timecontext.plugin}.
 */
@NullMarked
package dev.horae.timecontext;

import org.jspecify.annotations.NullMarked;
