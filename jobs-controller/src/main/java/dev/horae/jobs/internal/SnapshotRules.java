package dev.horae.jobs.internal;

import dev.horae.spi.jobs.JobSnapshot;
import java.util.Optional;

/** The job snapshot invariants of jobs spec §2.15. Pure. */
public final class SnapshotRules {

  private SnapshotRules() {}

  /**
   * Checks a record present when the companion is installed.
   *
   * @param s the snapshot
   * @return the first violation's message, or empty
   */
  public static Optional<String> atInstallation(JobSnapshot s) {
    return check(s, true);
  }

  /**
   * Checks a settlement snapshot against the owner it is delivered for.
   *
   * @param s the snapshot
   * @param deliveredOwnerId the delivered owner's id; empty for an unowned job
   * @return the first violation's message, or empty
   */
  public static Optional<String> atSettlement(JobSnapshot s, Optional<String> deliveredOwnerId) {
    Optional<String> basic = check(s, false);
    if (basic.isPresent()) {
      return basic;
    }
    if (!s.ownerSession().equals(deliveredOwnerId)) {
      return Optional.of(
          "job snapshot " + s.id().value() + ": ownerSession does not match its completion owner");
    }
    return Optional.empty();
  }

  private static Optional<String> check(JobSnapshot s, boolean installation) {
    String id = s.id().value();
    if (s.kind().isEmpty() || !s.id().kind().equals(s.kind())) {
      return Optional.of(
          "job snapshot id \"" + id + "\" must be \"" + s.kind() + "-\" followed by a positive"
              + " ordinal");
    }
    if (s.label().isEmpty()) {
      return Optional.of(
          "job snapshot " + id + ": label must be non-empty"
              + (installation ? " (at installation)" : ""));
    }
    if (s.startedAt() < 0) {
      return Optional.of("job snapshot " + id + ": startedAt must be a non-negative epoch integer");
    }
    if (s.finishedAt().isPresent() != s.status().isTerminal()) {
      return Optional.of(
          "job snapshot " + id + ": finishedAt must be present exactly for a terminal status");
    }
    if (s.finishedAt().isPresent() && s.finishedAt().getAsLong() < s.startedAt()) {
      return Optional.of(
          "job snapshot "
              + id
              + ": finishedAt must be an epoch integer no earlier than startedAt");
    }
    return Optional.empty();
  }
}
