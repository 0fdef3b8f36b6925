/**
 * The append-only session event log (host contract §3) and the sessions service (§4): events,
 * headers, synchronous appends guarded by vetoing validators, observers, forks with a seed, resume
 * and the durability checkpoint {@code flush}.
 */
@NullMarked
package dev.horae.spi.session;

import org.jspecify.annotations.NullMarked;
