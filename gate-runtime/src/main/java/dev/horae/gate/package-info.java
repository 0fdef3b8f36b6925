/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.gate;

import org.jspecify.annotations.NullMarked;
