/**
 * The pure Schedule model (spec {@code schedule.md} §2–§6, §10, §12.5, §16): everything the
 * Schedule tools and the live owner decide, as functions of their arguments.
 *
 * <ul>
 *   <li>{@link dev.horae.schedule.ChangeCodec} — the strict v1 {@code schedule/change} codec;
 *   <li>{@link dev.horae.schedule.ScheduleFold} — the incremental fold with the fork rule, and
 *       {@link dev.horae.schedule.ScheduleIds} — id allocation;
 *   <li>{@link dev.horae.schedule.CreateRequest} — shape checks and record building for the
 *       {@code after_seconds}, offset-string and local {@code at} selectors;
 *   <li>{@link dev.horae.schedule.ImplicitZone} and {@link dev.horae.schedule.ZoneAuthority} — the
 *       implicit-zone decision over the shared {@link dev.horae.spi.zone.TimeContextAuthority};
 *   <li>{@link dev.horae.schedule.ScheduleView}, {@link dev.horae.schedule.ScheduleJson},
 *       {@link dev.horae.schedule.ReminderFraming} and
 *       {@link dev.horae.schedule.ReminderPresentation} — what tools, the model and hosts see;
 *   <li>{@link dev.horae.schedule.ScheduleError} and {@link dev.horae.schedule.ScheduleResult} —
 *       domain errors as values.
 * </ul>
 *
 * <p>Nothing here reads a clock (callers pass {@code now}), starts a thread, does I/O or logs; an
 * ArchUnit test keeps it so.
 */
@NullMarked
package dev.horae.schedule;

import org.jspecify.annotations.NullMarked;
