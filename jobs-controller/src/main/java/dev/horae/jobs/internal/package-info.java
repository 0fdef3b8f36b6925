/**
 * Implementation details of the {@code tool-jobs} controller (jobs spec §3–§5,
 * docs/reference/jobs.md): the three tools and their argument validation (§3.3–§3.6), the tool
 * schemas, configuration validation (§3.2), notice delivery with its lanes and wake budget (§4)
 * and the producer output caps (§5.1). Not API.
 */
@NullMarked
package dev.horae.jobs.internal;

import org.jspecify.annotations.NullMarked;
