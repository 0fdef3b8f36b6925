package dev.horae.invariant;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The jobs invariant companion (jobs spec §2.15), owner {@link Owners#JOBS}. Job records do not
 * live in session logs, so this companion guards the job registry: it checks every current record
 * when it is installed and every settlement snapshot, the owner rule only on settlements (where the
 * delivered owner is known).
 *
 * <p>The rules, in order (the first failure wins; {@code <id>} is the snapshot id):
 *
 * <ol>
 *   <li>{@code job snapshot id "<id>" must be "<kind>-" followed by a positive ordinal};
 *   <li>{@code job snapshot <id>: label must be non-empty} (with {@code (at installation)} when
 *       found at installation);
 *   <li>{@code job snapshot <id>: startedAt must be a non-negative epoch integer};
 *   <li>{@code job snapshot <id>: finishedAt must be present exactly for a terminal status};
 *   <li>{@code job snapshot <id>: finishedAt must be an epoch integer no earlier than startedAt};
 *   <li>settlements only: {@code job snapshot <id>: ownerSession does not match its completion
 *       owner}.
 * </ol>
 *
 * <p>A settlement violation cannot veto anything (the job has settled); it completes the listener's
 * stage exceptionally, which the registry contains and logs, and is handed to an optional sink.
 */
public final class JobsCompanion {

  private static final Pattern ORDINAL = Pattern.compile("[1-9][0-9]*");

  private JobsCompanion() {}

  /**
   * Checks one snapshot against the rules that need no owner.
   *
   * @param snapshot the job record
   * @param atInstallation whether the check runs at installation (changes the label text)
   * @return the first failing rule's message, or empty
   */
  public static Optional<String> checkSnapshot(JobSnapshot snapshot, boolean atInstallation) {
    String id = snapshot.id().value();
    String kind = snapshot.kind();
    if (kind.isEmpty() || !id.startsWith(kind + "-") || !ORDINAL.matcher(id.substring(kind.length() + 1)).matches()) {
      return Optional.of("job snapshot id \"" + id + "\" must be \"<kind>-\" followed by a positive ordinal");
    }
    if (snapshot.label().isEmpty()) {
      return Optional.of("job snapshot " + id + ": label must be non-empty" + (atInstallation ? " (at installation)" : ""));
    }
    if (snapshot.startedAt() < 0) {
      return Optional.of("job snapshot " + id + ": startedAt must be a non-negative epoch integer");
    }
    if (snapshot.finishedAt().isPresent() != snapshot.status().isTerminal()) {
      return Optional.of("job snapshot " + id + ": finishedAt must be present exactly for a terminal status");
    }
    if (snapshot.finishedAt().isPresent() && snapshot.finishedAt().getAsLong() < snapshot.startedAt()) {
      return Optional.of("job snapshot " + id + ": finishedAt must be an epoch integer no earlier than startedAt");
    }
    return Optional.empty();
  }

  /**
   * Checks a settlement snapshot: every snapshot rule, then the owner rule.
   *
   * @param snapshot the terminal record
   * @param owner the delivered owner; empty for an unowned job
   * @return the first failing rule's message, or empty
   */
  public static Optional<String> checkSettlement(JobSnapshot snapshot, Optional<Agent> owner) {
    Optional<String> failed = checkSnapshot(snapshot, false);
    if (failed.isPresent()) {
      return failed;
    }
    if (!snapshot.ownerSession().equals(owner.map(Agent::id))) {
      return Optional.of("job snapshot " + snapshot.id().value() + ": ownerSession does not match its completion owner");
    }
    return Optional.empty();
  }

  /**
   * Installs the companion: registers it with the invariant service, checks every current record
   * (the unowned ones and those of every live root agent), then checks every settlement. When the
   * service is disabled nothing is checked.
   *
   * @param invariants the host's invariant service
   * @param jobs the job registry
   * @param agents the agent registry, used to see the records owned by live root agents
   * @param sink receives every settlement violation (e.g. a test guard)
   * @return the handle that removes the companion
   * @throws InvariantViolation when a current record breaks a rule; nothing stays installed
   */
  public static Registration install(
      InvariantService invariants, JobService jobs, AgentRegistry agents, Consumer<InvariantViolation> sink) {
    AtomicReference<Optional<InvariantFail>> installed = new AtomicReference<>(Optional.empty());
    Registration registration = invariants.register(Owners.JOBS, fail -> {
      installed.set(Optional.of(fail));
      // job records are not session events: the session checks stay empty
      return new InvariantChecks() {};
    });
    Optional<InvariantFail> fail = Objects.requireNonNull(installed.get(), "installed");
    if (fail.isEmpty()) {
      return registration;
    }
    try {
      for (JobSnapshot snapshot : currentRecords(jobs, agents)) {
        Optional<String> failed = checkSnapshot(snapshot, true);
        if (failed.isPresent()) {
          throw fail.get().fail(failed.get());
        }
      }
    } catch (RuntimeException e) {
      registration.close();
      throw e;
    }
    Registration listener = jobs.onJobDone(Optional.empty(), settlementListener(fail.get(), sink));
    return () -> {
      listener.close();
      registration.close();
    };
  }

  /**
   * Installs the companion without a violation sink.
   *
   * @param invariants the host's invariant service
   * @param jobs the job registry
   * @param agents the agent registry
   * @return the handle that removes the companion
   * @throws InvariantViolation when a current record breaks a rule
   */
  public static Registration install(InvariantService invariants, JobService jobs, AgentRegistry agents) {
    return install(invariants, jobs, agents, v -> {});
  }

  /** Every record the SPI lets a host read: unowned ones, then those of each live root agent. */
  private static List<JobSnapshot> currentRecords(JobService jobs, AgentRegistry agents) {
    Map<String, JobSnapshot> byId = new LinkedHashMap<>();
    jobs.list(Optional.empty()).forEach(s -> byId.putIfAbsent(s.id().value(), s));
    for (Agent agent : agents.roots()) {
      jobs.list(Optional.of(agent)).forEach(s -> byId.putIfAbsent(s.id().value(), s));
    }
    return new ArrayList<>(byId.values());
  }

  /**
   * A listener form of the settlement check, for hosts that wire listeners themselves.
   *
   * @param fail the invariant service's fail function
   * @param sink receives each violation
   * @return a listener whose stage fails with the violation
   */
  public static JobDoneListener settlementListener(InvariantFail fail, Consumer<InvariantViolation> sink) {
    return (snapshot, owner) -> {
      Optional<String> failed = checkSettlement(snapshot, owner);
      if (failed.isEmpty()) {
        return CompletableFuture.completedFuture(Boolean.TRUE);
      }
      InvariantViolation violation = fail.fail(failed.get());
      sink.accept(violation);
      return CompletableFuture.failedFuture(violation);
    };
  }
}
