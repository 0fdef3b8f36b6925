/**
 * Implementation details of the Schedule core: canonical UTC instants, the selector grammars and
 * the client-zone derivation. Not an API; may change without notice.
 */
@NullMarked
package dev.horae.schedule.internal;

import org.jspecify.annotations.NullMarked;
