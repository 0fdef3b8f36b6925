/**
 * Pure internals of the invariant module: the replay of a log's gate run facts. The command line
 * and its file reader live in the {@code cli} sub-package.
 */
@NullMarked
package dev.horae.invariant.internal;

import org.jspecify.annotations.NullMarked;
