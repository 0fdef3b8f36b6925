/**
 * User messages and their sources (host contract §7): immutable messages with text content, the
 * three source forms (plain user, user prompt over RPC with an optional client zone, plugin with an
 * optional form), the message factory with an injected id source, and prompt admission of client
 * zones (§7.3).
 */
@NullMarked
package dev.horae.spi.message;

import org.jspecify.annotations.NullMarked;
