/**
 * The pure line framing of the file session store: one line per flush, {@code <crc32c> <json>}
 * where the JSON is the array of events that flush made durable, and the classification of a
 * stored line as good, torn-or-corrupt (a bad frame) or inconsistent (a good frame whose seqs do
 * not continue the log).
 *
 * <p>Pure: no I/O, no clock, no threads, no logging (an ArchUnit test keeps it so). The I/O side in
 * {@code dev.horae.store.internal} decides from the position of a bad line whether it is a torn
 * tail or corruption.
 */
@NullMarked
package dev.horae.store.internal.frame;

import org.jspecify.annotations.NullMarked;
