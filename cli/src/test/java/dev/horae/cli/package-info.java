/** Tests of the operator command line, each command against a store a runtime wrote before. */
@NullMarked
package dev.horae.cli;

import org.jspecify.annotations.NullMarked;
