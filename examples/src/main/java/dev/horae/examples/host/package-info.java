/**
 * A live host assembled from the library's own parts: the reference sessions service with the
 * crash-safe file store for durability, the reference agent registry and turn loop on a real
 * driver thread, the reference tool registry and gate chain, the invariant service, the system
 * clock and monotonic timers, and warnings to SLF4J.
 */
@NullMarked
package dev.horae.examples.host;

import org.jspecify.annotations.NullMarked;
