/**
 * Implementation of the Schedule plugin: tool catalog and pipelines, the per-agent transaction
 * queue, flush helpers, the incremental fold cache and the live owner. Not an API.
 */
@NullMarked
package dev.horae.schedule.tools.internal;

import org.jspecify.annotations.NullMarked;
