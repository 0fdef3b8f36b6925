/** Tests of the runtime's invariant service. */
@NullMarked
package dev.horae.runtime.invariant;

import org.jspecify.annotations.NullMarked;
