/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.timecontext;

import org.jspecify.annotations.NullMarked;
