/**
 * The tool registry (host contract §8): definitions with an input JSON Schema (subset), an output
 * schema and renderer, presentation cards, the call pipeline (pre-execute listeners, argument
 * validation with {@code INVALID_ARGS}, execution, output handling, cancellation with
 * {@code ABORTED}, final-content callback) and results.
 */
@NullMarked
package dev.horae.spi.tool;

import org.jspecify.annotations.NullMarked;
