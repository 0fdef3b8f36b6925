/**
 * Implementation details of the Schedule core: canonical UTC instants and the selector grammars.
 * Not an API; may change without notice.
 */
@NullMarked
package dev.horae.schedule.internal;

import org.jspecify.annotations.NullMarked;
