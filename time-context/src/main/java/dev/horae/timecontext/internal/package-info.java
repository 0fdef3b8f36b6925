/**
 * Pure internals of time-context: the reading grammar and text composition, the backward position
 * scan and small event readers. Not API; may change without notice.
 */
@NullMarked
package dev.horae.timecontext.internal;

import org.jspecify.annotations.NullMarked;
