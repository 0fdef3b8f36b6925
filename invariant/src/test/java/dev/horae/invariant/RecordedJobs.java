package dev.horae.invariant;

import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobDoneListener;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobRead;
import dev.horae.spi.jobs.JobReporter;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobSnapshot;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobsChangedObserver;
import dev.horae.spi.jobs.KillOutcome;
import dev.horae.spi.plugin.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A job registry that serves fixed records and hands settlements to its listeners on demand: the
 * only way to show the companion records no conforming registry would produce.
 */
final class RecordedJobs implements JobService {

  private final List<JobSnapshot> records;
  final List<JobDoneListener> listeners = new ArrayList<>();

  RecordedJobs(List<JobSnapshot> records) {
    this.records = List.copyOf(records);
  }

  /** Delivers a settlement to every listener, returning their stages. */
  List<CompletionStage<?>> settle(JobSnapshot snapshot, Optional<Agent> owner) {
    List<CompletionStage<?>> stages = new ArrayList<>();
    for (JobDoneListener l : List.copyOf(listeners)) {
      stages.add(l.onJobDone(snapshot, owner));
    }
    return stages;
  }

  @Override
  public List<JobSnapshot> list(Optional<Agent> caller) {
    return caller.isEmpty() ? records : List.of();
  }

  @Override
  public Registration onJobDone(Optional<Scope> scope, JobDoneListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public JobId start(JobStart start) {
    throw new UnsupportedOperationException("start");
  }

  @Override
  public JobSnapshot get(JobId id, Optional<Agent> caller) {
    throw new UnsupportedOperationException("get");
  }

  @Override
  public JobRead read(JobId id, Optional<Agent> caller) {
    throw new UnsupportedOperationException("read");
  }

  @Override
  public KillOutcome kill(JobId id, Optional<Agent> caller, Optional<String> reason) {
    throw new UnsupportedOperationException("kill");
  }

  @Override
  public CompletionStage<JobSnapshot> await(JobId id, double timeoutMs, Optional<Agent> caller, AbortSignal abort) {
    throw new UnsupportedOperationException("await");
  }

  @Override
  public Registration attachController(Optional<Scope> scope, String name, JobReporter reporter) {
    throw new UnsupportedOperationException("attachController");
  }

  @Override
  public Registration onJobsChanged(Optional<Scope> scope, JobsChangedObserver observer) {
    throw new UnsupportedOperationException("onJobsChanged");
  }

  @Override
  public void attachNotice(JobId id, Agent owner, String messageId) {
    throw new UnsupportedOperationException("attachNotice");
  }

  @Override
  public boolean serves(Optional<Agent> owner) {
    return false;
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    return CompletableFuture.completedFuture(null);
  }
}
