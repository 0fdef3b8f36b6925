/**
 * How a host author runs the conformance scenarios against their own host: {@link
 * dev.horae.examples.tck.MyScenarioHosts} stands in for the author's host factory, and {@link
 * dev.horae.examples.tck.ScenarioExample} is the snippet {@code docs/conformance.md} quotes.
 */
@NullMarked
package dev.horae.examples.tck;

import org.jspecify.annotations.NullMarked;
