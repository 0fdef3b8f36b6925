/**
 * Zones as every component sees them: the one zone resolver shared by Schedule, time-context and
 * hosts (schedule spec §16.4, host contract §3.3 and §7.3), and the client-zone authority derived
 * from the durable log.
 *
 * <ul>
 *   <li>{@link dev.horae.spi.zone.ZoneResolver} — known names, the bundled pure-alias link table,
 *       canonical names and the Area/Location shape rule;
 *   <li>{@link dev.horae.spi.zone.ClientZones} — the client zones the prompts of a turn carry
 *       (time-context spec §9), with {@link dev.horae.spi.zone.ClientZoneException} for a recorded
 *       zone the host should not have admitted;
 *   <li>{@link dev.horae.spi.zone.TimeContextAuthority} — the current step's open step, reading
 *       evidence, session zone and client zones (time-context spec §10, schedule spec §6.8.2).
 * </ul>
 *
 * <p>The authority joins facts of two plugins (time-context writes the readings, Schedule decides
 * the implicit zone), and a plugin never depends on another, so the rule lives here. What each
 * plugin does with it stays with the plugin: Schedule's confirm-or-ask decision ({@code
 * dev.horae.schedule.ImplicitZone}), time-context's reading lines ({@code
 * dev.horae.timecontext.ClientZoneContext}). Pure: no clock, no I/O.
 */
@NullMarked
package dev.horae.spi.zone;

import org.jspecify.annotations.NullMarked;
