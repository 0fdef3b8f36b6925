/**
 * Deterministic time for tests (host contract §12.5): {@link dev.horae.testkit.time.ManualTime}
 * is one manual time source with a wall clock that can jump on its own and a monotonic clock that
 * moves only when a test advances it, firing due timers in due order; {@link
 * dev.horae.testkit.time.SequentialIds} issues predictable message ids; {@link
 * dev.horae.testkit.time.SettableZone} is a process zone that tests set explicitly.
 *
 * <p>Nothing here reads the system clock, starts a thread or sleeps: time moves only when a test
 * moves it, and timer tasks run on the thread that moved it.
 */
@NullMarked
package dev.horae.testkit.time;

import org.jspecify.annotations.NullMarked;
