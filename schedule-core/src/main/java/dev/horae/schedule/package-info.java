/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.schedule;

import org.jspecify.annotations.NullMarked;
