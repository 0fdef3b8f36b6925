/**
 * The crash campaign (profile {@code slow}): child JVMs running the file store, the Schedule
 * owner and a durable gate on the production runtime are killed with SIGKILL at random points,
 * and the parent checks every recovered folder.
 */
@NullMarked
package dev.horae.examples.crash;

import org.jspecify.annotations.NullMarked;
