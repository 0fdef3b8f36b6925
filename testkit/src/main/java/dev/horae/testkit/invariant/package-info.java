/**
 * The invariant service of the reference host (host contract §10):
 * {@link dev.horae.testkit.invariant.TestInvariantService} validates every live session when a
 * companion registers, then every created, forked or resumed session and every candidate append;
 * it can also run disabled, where registration is a no-op.
 */
@NullMarked
package dev.horae.testkit.invariant;

import org.jspecify.annotations.NullMarked;
