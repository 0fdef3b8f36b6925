package dev.horae.conformance;

import java.util.List;

/**
 * The totals of a run.
 *
 * @param passed the number of passing cases
 * @param failed the number of failing cases
 * @param failureLines one {@code FAIL} line per failing case, in run order
 */
public record Report(int passed, int failed, List<String> failureLines) {

  /** Freezes the lines. */
  public Report {
    failureLines = List.copyOf(failureLines);
  }

  /**
   * The closing line.
   *
   * @return {@code N passed, N failed}
   */
  public String summary() {
    return passed + " passed, " + failed + " failed";
  }

  /**
   * The process exit status of the run.
   *
   * @return 0 when nothing failed, else 1
   */
  public int exitStatus() {
    return failed == 0 ? 0 : 1;
  }
}
