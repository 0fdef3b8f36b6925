/**
 * The Horae conformance runner: it reads vector files (JSON Lines, one case per line, in the
 * format of {@code conformance/FORMAT.md}), calls each case's catalogue function through a
 * {@link dev.horae.conformance.SuiteAdapter}, checks the result against the case's expectation
 * and reports one {@code FAIL} line per failing case and a closing {@code N passed, N failed}
 * line.
 *
 * <p>{@link dev.horae.conformance.Conformance} is the command-line entry point of {@code
 * conformance.jar}; {@link dev.horae.conformance.ConformanceRunner} is the embeddable runner; a
 * re-implementation of one capability plugs in its own {@link dev.horae.conformance.SuiteAdapter}.
 * A broken case (unknown function, arguments the function cannot take, an unexpected exception)
 * fails alone: the run always goes on.
 */
@NullMarked
package dev.horae.conformance;

import org.jspecify.annotations.NullMarked;
