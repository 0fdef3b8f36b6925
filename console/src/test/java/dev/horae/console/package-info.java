/** Tests of the console's request routine and access rule, without an HTTP server. */
@NullMarked
package dev.horae.console;

import org.jspecify.annotations.NullMarked;
