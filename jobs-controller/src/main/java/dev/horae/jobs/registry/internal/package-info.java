/**
 * Implementation details of the local job registry (jobs spec §2, docs/reference/jobs.md): the
 * job record (§2.2), waiters (§2.9), admission (§2.5), routing layers (§2.12, §2.14) and the
 * contained callbacks (§2.10–§2.12). Not API.
 */
@NullMarked
package dev.horae.jobs.registry.internal;

import org.jspecify.annotations.NullMarked;
