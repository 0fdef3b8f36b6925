/**
 * The {@code invariant check FILE...} command: a read-only reader of the file session store's
 * folders ({@code header.json} plus the CRC32C-framed {@code events.log}) and the command line that
 * runs every log companion over what it reads. This is the only package of the module that does
 * I/O.
 */
@NullMarked
package dev.horae.invariant.internal.cli;

import org.jspecify.annotations.NullMarked;
