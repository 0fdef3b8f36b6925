/**
 * The runtime's tool registry (host contract §8): scoped registration, the JSON Schema subset
 * validator, the call pipeline with {@code INVALID_ARGS} before the body, exclusive execution per
 * agent, output validation and rendering, and cancellation replaced by {@code ABORTED} once the
 * body settles.
 */
@NullMarked
package dev.horae.runtime.tool;

import org.jspecify.annotations.NullMarked;
