/**
 * Implementation details of the jobs controller and the local registry: number renderings,
 * configuration validation, the record store, routing layers, settlement and delivery. Not API.
 */
@NullMarked
package dev.horae.jobs.internal;

import org.jspecify.annotations.NullMarked;
