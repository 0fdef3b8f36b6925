/**
 * The runner's machinery: finding and reading case files, decoding {@code $number} arguments,
 * JSON equality by value, and checking the expectation forms of {@code FORMAT.md}. Suite
 * adapters live in {@code internal.suite}.
 */
@NullMarked
package dev.horae.conformance.internal;

import org.jspecify.annotations.NullMarked;
