/**
 * Time for the library (host contract §12): the injected wall clock is a
 * {@link java.time.InstantSource}; {@link dev.horae.spi.time.Timers} schedules callbacks on a
 * monotonic clock; {@link dev.horae.spi.time.IdSource} supplies message ids. {@link
 * dev.horae.spi.time.SystemTime} is the only place in the library that reads the system clock.
 */
@NullMarked
package dev.horae.spi.time;

import org.jspecify.annotations.NullMarked;
