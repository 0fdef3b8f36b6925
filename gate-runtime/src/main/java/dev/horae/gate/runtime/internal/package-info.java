/**
 * Not API: gate-runtime's commit machinery, with no compatibility promise — any type or member may
 * change or go in any release. Its types are public only because the {@code runtime} module's turn
 * engine commits with them (a Run's tool batch and its phases, and the wire codec of commits,
 * dispositions and batches, gate specification §5.1, §7); an embedder or an operator never needs
 * them, and the architecture module's layering test fails any main class outside {@code
 * dev.horae.gate..} and {@code dev.horae.runtime..} that names one.
 *
 * <p>The API is {@link dev.horae.gate.runtime}: the dispatcher, its queues and options, the commit
 * store and its view, the commit types and the errors.
 */
@NullMarked
package dev.horae.gate.runtime.internal;

import org.jspecify.annotations.NullMarked;
