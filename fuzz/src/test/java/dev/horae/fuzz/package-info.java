/**
 * A seeded mutation fuzzer ({@link dev.horae.fuzz.Mutator}, {@link dev.horae.fuzz.FuzzRun}) and
 * its runs over every decoder of persisted or external bytes: file-store lines, headers and
 * folders, the session event codec, Schedule's change codec and fold, the gate ticket, commit and
 * resume codecs, the plugin configurations and the conformance case lines.
 *
 * <p>The property is the same everywhere: an input ends in a valid value or in the decoder's own
 * documented error, never in another exception, a hang or an out-of-memory. Jazzer's JUnit
 * integration does not resolve from this build's repositories, so the fuzzer is written here; it
 * is not coverage-guided, which is why its seeds are valid values of every shape and half of its
 * mutations work on the JSON tree rather than on bytes.
 */
@NullMarked
package dev.horae.fuzz;

import org.jspecify.annotations.NullMarked;
