/**
 * Implementation details of the local job registry (jobs spec §2, docs/reference/jobs.md), one
 * class per seam of the spec: the record store and its lock (§2.2, §2.6, §2.16), start preflight
 * and admission (§2.4, §2.5), waits (§2.9), settlement (§2.11), routing layers (§2.12, §2.14),
 * teardown (§2.13) and the contained callbacks (§2.10–§2.12). Not API.
 */
@NullMarked
package dev.horae.jobs.registry.internal;

import org.jspecify.annotations.NullMarked;
