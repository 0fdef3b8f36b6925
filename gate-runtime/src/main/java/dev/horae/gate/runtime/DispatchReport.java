package dev.horae.gate.runtime;

import java.util.Map;

/**
 * What one dispatcher pass did: the final outcome of every Run it performed, and the Runs whose
 * perform failed unexpectedly (a failing Run never blocks the others; its ticket stays committed,
 * or its pre-commit consumed it and recovery applies).
 *
 * @param performed final outcome by run id, in pass order
 * @param failed the unexpected failure by run id
 */
public record DispatchReport(Map<String, ResumeOutcome> performed, Map<String, Throwable> failed) {
  /** Copies the maps. */
  public DispatchReport {
    performed = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(performed));
    failed = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(failed));
  }
}
