/**
 * Invariant companions (host contract §10): validators that run against every live session at
 * registration, every created (seeded, resumed) session, and every candidate append, vetoing with
 * {@code invariant violated by "<owner>": <message>}.
 */
@NullMarked
package dev.horae.spi.invariant;

import org.jspecify.annotations.NullMarked;
