/**
 * The runnable demo ({@link dev.horae.examples.Demo}, packaged as {@code horae-demo.jar}) and the
 * compiled examples the README and the docs quote. The demo runs a live host over the file store
 * in {@code ./horae-data} with the system clock and a deterministic model, and shows each
 * capability's moment; a second run shows what survived.
 */
@NullMarked
package dev.horae.examples;

import org.jspecify.annotations.NullMarked;
