/**
 * The one zone resolver shared by Schedule, time-context and hosts (schedule spec §16.4, host
 * contract §3.3 and §7.3): known names, the bundled pure-alias link table, canonical names and the
 * Area/Location shape rule.
 */
@NullMarked
package dev.horae.spi.zone;

import org.jspecify.annotations.NullMarked;
