/**
 * The chaos campaign (profile {@code slow}): worker JVMs, each a leased production runtime on one
 * embedded PostgreSQL, are killed with SIGKILL, restarted and paused past their leases while they
 * serve reminders and scheduled actions; the test then checks every session's log and what the
 * database recorded of who wrote it.
 */
@NullMarked
package dev.horae.examples.chaos;

import org.jspecify.annotations.NullMarked;
