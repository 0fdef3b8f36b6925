/**
 * Logging for tests (host contract §13): {@link dev.horae.testkit.log.CapturingWarnings} is a
 * warning sink that records every contained failure, so a test can assert that a failure was
 * contained and reported rather than thrown or lost; {@link dev.horae.testkit.log.LogWaits} waits,
 * bounded and woken by appends, for a log to reach a state.
 */
@NullMarked
package dev.horae.testkit.log;

import org.jspecify.annotations.NullMarked;
