/**
 * One adapter per catalogue suite ({@code schedule}, {@code time-context}, {@code jobs}, {@code
 * gate}): each maps a case's {@code args} onto the capability module's public API and turns its
 * result or domain error into an {@link dev.horae.conformance.Outcome}. No domain logic lives
 * here.
 */
@NullMarked
package dev.horae.conformance.internal.suite;

import org.jspecify.annotations.NullMarked;
