/**
 * The in-memory session store of the reference host (host contract §3, §4, §14):
 * {@link dev.horae.testkit.session.InMemorySessions} is the live sessions service (append with
 * vetoing validators and contained observers, create, fork, resume, flush, append faults);
 * {@link dev.horae.testkit.session.InMemorySessionStore} is the durable copy a flush writes and a
 * resume reads, with a {@link dev.horae.testkit.session.FlushScript} that scripts each persist's
 * outcome. {@link dev.horae.testkit.session.InMemorySessions#restartFrom} builds the "fresh
 * runtime" of restart scenarios.
 */
@NullMarked
package dev.horae.testkit.session;

import org.jspecify.annotations.NullMarked;
