/**
 * Scopes and services of the runtime: a registration context whose registrations are closed in
 * reverse order, and whose disposal effects are awaited, when it is disposed; and the map of
 * optional host services a plugin finds with {@code Host.service}.
 */
@NullMarked
package dev.horae.runtime.plugin;

import org.jspecify.annotations.NullMarked;
