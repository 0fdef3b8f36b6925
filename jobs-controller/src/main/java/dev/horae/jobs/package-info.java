/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.jobs;

import org.jspecify.annotations.NullMarked;
