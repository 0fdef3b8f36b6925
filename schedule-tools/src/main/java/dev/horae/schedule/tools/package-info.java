/**
 * The Schedule plugin (spec {@code schedule.md} §6–§12): {@link
 * dev.horae.schedule.tools.SchedulePlugin} installs the three management tools and a live owner on
 * every root agent created after it loads. Tool transactions and the owner's due transaction run
 * one at a time through a per-agent queue, with a preflight flush before any fold-based decision
 * and a barrier flush after every mutation. Reminder state lives only in the session log; the
 * fold is kept incrementally per session.
 */
@NullMarked
package dev.horae.schedule.tools;

import org.jspecify.annotations.NullMarked;
