/**
 * The durable dispatcher's suites (gate specification §12.5) on the production turn engine: a
 * {@link dev.horae.runtime.HoraeRuntime} built with a dispatch queue, driven through {@link
 * dev.horae.runtime.dispatch.DispatchRig} on a manual clock.
 */
package dev.horae.runtime.dispatch;
