/** Tests of the Micrometer binding: a scripted scenario on a manual clock, then exact meter values. */
@NullMarked
package dev.horae.micrometer;

import org.jspecify.annotations.NullMarked;
