/**
 * Plugin lifecycle and the host handle: a {@link dev.horae.spi.plugin.Plugin} is installed on a
 * {@link dev.horae.spi.plugin.Host} and returns an {@link dev.horae.spi.plugin.Installation} whose
 * idempotent {@code close()} disposes it; {@link dev.horae.spi.plugin.Scope} is a registration
 * context (plugin or agent) whose effects are closed and awaited at disposal.
 */
@NullMarked
package dev.horae.spi.plugin;

import org.jspecify.annotations.NullMarked;
