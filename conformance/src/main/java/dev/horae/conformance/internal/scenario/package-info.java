/**
 * The scenario interpreter: reads a {@code scenario} case's host setup and steps, drives a
 * {@link dev.horae.conformance.scenario.ScenarioHost} step by step, renders what it observes
 * (tool results, messages, log events) as JSON and checks each expectation.
 */
@NullMarked
package dev.horae.conformance.internal.scenario;

import org.jspecify.annotations.NullMarked;
