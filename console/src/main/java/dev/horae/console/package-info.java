/**
 * The web console, independent of any HTTP server ({@link dev.horae.console.Console}): one page,
 * its CSS and JS from the jar's resources, and JSON endpoints over a {@link
 * dev.horae.console.ConsoleBackend} — sessions, a session's timeline, reminders due, calls
 * awaiting approval, the approve/deny answers behind a CSRF token and an Origin check, and the
 * {@code api/events} stream of Server-Sent Events that tells the page when to reload. Who may use
 * it is {@link dev.horae.console.ConsoleAccess}'s rule. {@link dev.horae.console.LogBackend} reads
 * session logs (a store, or a running runtime) and answers through {@link
 * dev.horae.console.Answered#give}. {@code horae console} (module cli) and the Spring Boot starter
 * adapt it to their servers. Pages, endpoints and the security model: {@code docs/operations.md},
 * "Web console".
 */
@NullMarked
package dev.horae.console;

import org.jspecify.annotations.NullMarked;
