package dev.horae.jobs;

import dev.horae.jobs.internal.SnapshotRules;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobSnapshot;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The jobs invariant companion (jobs spec §2.15): registers under {@link #OWNER} with the host's
 * invariant service, checks every current record when installed, then every settlement snapshot
 * (including the owner rule). A settlement violation is contained by the registry and reported
 * as a warning that reads {@code invariant violated by "@deepseek-ai/dsh-jobs": <message>}.
 */
public final class JobsInvariants {

  /** The fixed owner name. */
  public static final String OWNER = "@deepseek-ai/dsh-jobs";

  private JobsInvariants() {}

  /**
   * Installs the companion. With a disabled invariant service nothing is checked.
   *
   * @param invariants the host's invariant service
   * @param jobs the local registry to check
   * @return a handle that removes the companion
   * @throws dev.horae.spi.invariant.InvariantViolation when a current record is invalid
   */
  public static Registration install(InvariantService invariants, LocalJobService jobs) {
    AtomicReference<Optional<InvariantFail>> fail = new AtomicReference<>(Optional.empty());
    Registration companion =
        invariants.register(
            OWNER,
            f -> {
              for (JobSnapshot s : jobs.allSnapshots()) {
                Optional<String> violation = SnapshotRules.atInstallation(s);
                if (violation.isPresent()) {
                  throw f.fail(violation.get());
                }
              }
              fail.set(Optional.of(f));
              return new InvariantChecks() {};
            });
    Registration listener =
        jobs.onJobDone(
            Optional.empty(),
            JobDoneListener.sync(
                (snapshot, owner) -> {
                  Optional<InvariantFail> f = Objects.requireNonNull(fail.get());
                  Optional<String> violation =
                      SnapshotRules.atSettlement(snapshot, owner.map(Agent::id));
                  if (f.isPresent() && violation.isPresent()) {
                    throw f.get().fail(violation.get());
                  }
                }));
    return () -> {
      listener.close();
      companion.close();
    };
  }
}
