/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.store;

import org.jspecify.annotations.NullMarked;
