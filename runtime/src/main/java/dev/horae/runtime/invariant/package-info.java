/**
 * The runtime's invariant service (host contract §10):
 * {@link dev.horae.runtime.invariant.LogInvariantService} validates every live session when a
 * companion registers, then every created, forked or resumed session and every candidate append;
 * it can also run disabled, where registration is a no-op.
 */
@NullMarked
package dev.horae.runtime.invariant;

import org.jspecify.annotations.NullMarked;
