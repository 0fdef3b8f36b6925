/**
 * Scopes of the testkit host: a registration context whose registrations are closed in reverse
 * order, and whose disposal effects are awaited, when it is disposed.
 */
@NullMarked
package dev.horae.testkit.plugin;

import org.jspecify.annotations.NullMarked;
