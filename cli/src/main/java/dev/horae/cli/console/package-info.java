/**
 * The web console {@code horae console} serves ({@link dev.horae.cli.console.WebConsole}): one
 * page, its CSS and JS from the jar's resources, and JSON endpoints over a {@link
 * dev.horae.cli.console.ConsoleBackend} — sessions, a session's timeline, reminders due, calls
 * awaiting approval, the approve/deny answers behind a CSRF token and an Origin/Host check, and
 * the {@code /api/events} stream of Server-Sent Events that tells the page when to reload.
 * Pages, endpoints and the security model: {@code docs/operations.md}, "Web console".
 */
@NullMarked
package dev.horae.cli.console;

import org.jspecify.annotations.NullMarked;
