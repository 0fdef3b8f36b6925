/**
 * Micrometer meters for a Horae runtime. {@link dev.horae.micrometer.HoraeMetrics} binds the
 * runtime's figures to a {@code MeterRegistry} the application gives; {@link
 * dev.horae.micrometer.MeteredSessionStore} times the flushes of any session store; {@link
 * dev.horae.micrometer.DispatcherMetrics} binds a gate-runtime {@code DurableDispatcher}. Every meter,
 * its type, tags and source are in one table in {@code docs/operations.md}.
 */
@NullMarked
package dev.horae.micrometer;

import org.jspecify.annotations.NullMarked;
