/**
 * Placeholder overview; replaced when the module is filled.
 */
@NullMarked
package dev.horae.testkit;

import org.jspecify.annotations.NullMarked;
