/** Tests of the production runtime. */
@NullMarked
package dev.horae.runtime;

import org.jspecify.annotations.NullMarked;
