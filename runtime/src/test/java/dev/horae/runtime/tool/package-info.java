/** Tests of the runtime's tool registry and schema subset. */
@NullMarked
package dev.horae.runtime.tool;

import org.jspecify.annotations.NullMarked;
