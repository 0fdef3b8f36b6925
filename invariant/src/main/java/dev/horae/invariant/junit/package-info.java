/**
 * {@link dev.horae.invariant.junit.InvariantGuard}, a JUnit 5 extension that runs every invariant
 * companion under a plugin test and fails the test when any append it made, or any session it
 * created, would violate an invariant.
 *
 * <p>It lives here rather than in the testkit because the testkit must not depend on the
 * capability cores whose rules the companions reuse. A plugin module adds {@code
 * dev.horae:invariant} with test scope and writes:
 *
 * <pre>{@code
 * @RegisterExtension final InvariantGuard guard = new InvariantGuard();
 *
 * @Test void remindsOnce() {
 *   TestHost host = guard.watch(TestHost.builder().build());
 *   ... // any append that breaks an invariant fails this test after it ran
 * }
 * }</pre>
 */
@NullMarked
package dev.horae.invariant.junit;

import org.jspecify.annotations.NullMarked;
