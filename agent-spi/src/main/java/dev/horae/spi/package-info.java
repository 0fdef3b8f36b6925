/**
 * The Horae host contract: the small set of interfaces and immutable values through which every
 * Horae plugin talks to the agent runtime that embeds it.
 *
 * <p>This root package holds the cross-cutting pieces (registrations, cancellation signals); the
 * seams themselves live in sub-packages: {@code session} (the append-only log and the sessions
 * service), {@code agent} (agents, turns and pre-step listeners), {@code message} (user messages
 * and their sources), {@code tool} (tool registry), {@code gate} (tool-gate hook), {@code jobs}
 * (background job seam), {@code invariant} (invariant companions), {@code time} (wall clock,
 * monotonic timers, ids) and {@code plugin} (plugin lifecycle and the host handle).
 *
 * <p>No {@code null} crosses a seam: optional values are {@link java.util.Optional} or absent JSON
 * members.
 */
@NullMarked
package dev.horae.spi;

import org.jspecify.annotations.NullMarked;
