/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.schedule.tools;

import org.jspecify.annotations.NullMarked;
