package dev.horae.gate.runtime;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Conditions a store applies atomically with the append (gate specification §5.4).
 *
 * @param expectedRunHead when present, the Run's latest commit sequence must equal it (0 = no
 *     commit yet)
 * @param fence when present, the dispatch claim must be current
 */
public record CommitConditions(OptionalLong expectedRunHead, Optional<LeaseFence> fence) {

  /** Rejects missing optionals. */
  public CommitConditions {
    Objects.requireNonNull(expectedRunHead, "expectedRunHead");
    Objects.requireNonNull(fence, "fence");
  }

  /**
   * No conditions beyond validity and terminal-is-final.
   *
   * @return the conditions
   */
  public static CommitConditions none() {
    return new CommitConditions(OptionalLong.empty(), Optional.empty());
  }

  /**
   * A compare-and-append on the Run's head.
   *
   * @param head the expected head (0 = the Run has no commit yet)
   * @return the conditions
   */
  public static CommitConditions expectingHead(long head) {
    return new CommitConditions(OptionalLong.of(head), Optional.empty());
  }
}
