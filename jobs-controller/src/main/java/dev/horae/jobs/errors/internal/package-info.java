/**
 * The error texts every part of the jobs module shares — the registry, the controller and the
 * {@code bash} kind: the {@code <error>} rendering of jobs spec §0 and the echoed job id of §2.6
 * (docs/reference/jobs.md). Pure. Not API.
 */
@NullMarked
package dev.horae.jobs.errors.internal;

import org.jspecify.annotations.NullMarked;
