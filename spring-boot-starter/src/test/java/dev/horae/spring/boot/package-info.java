/** Tests of the auto-configuration in Boot application contexts. */
@NullMarked
package dev.horae.spring.boot;

import org.jspecify.annotations.NullMarked;
