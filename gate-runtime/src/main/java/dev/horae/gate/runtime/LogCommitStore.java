package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.ResumeTicket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The commit logic shared by every log-backed store: per-thread folds kept current with the log,
 * the commit conditions checked and the append made under the thread's lock, so check and append
 * are one atomic step.
 */
abstract class LogCommitStore implements CommitStore, CommittedThreadView {

  /** One thread's append-only log of commit payloads. */
  interface ThreadLog {
    /** The payloads appended from position {@code from} on, and the new position. */
    Batch readFrom(long from);

    /**
     * Appends one commit payload and the dispatch facts its outbox implies, all or nothing;
     * returns the new position.
     */
    long append(JsonNode payload, List<ObjectNode> dispatchFacts);
  }

  /**
   * The dispatch queue paired with this store (gate specification §12.5.1, §12.5.3): its fence
   * check and outbox run inside the commit's atomic step, under the queue's lock, so a claim or a
   * settle never interleaves with a commit's check and append.
   */
  interface DispatchHook {
    /** The queue's lock, held across the fence check, the append and the outbox. */
    Object lock();

    /** Whether the fence's claim is current for this commit; called under {@link #lock()}. */
    boolean admits(LeaseFence fence, ThreadCommit commit);

    /** The dispatch facts the commit implies (not yet applied); called under {@link #lock()}. */
    List<ObjectNode> outbox(ThreadCommit commit);

    /** The facts landed with the commit, the thread's log ending at {@code logEnd}. */
    void applied(String threadId, List<ObjectNode> facts, long logEnd);
  }

  private volatile Optional<DispatchHook> dispatch = Optional.empty();

  /** Wires the paired queue in; done once, before the store is shared. */
  void attach(DispatchHook hook) {
    dispatch = Optional.of(hook);
  }

  /** Payloads read from a log, and the log position after them. */
  record Batch(List<JsonNode> payloads, long end) {}

  private final Map<String, ThreadFold> folds = new ConcurrentHashMap<>();
  private final Map<String, String> runThreads = new ConcurrentHashMap<>();

  /** The log of a thread, or empty when the thread has none (yet). */
  abstract Optional<ThreadLog> log(String threadId, boolean forWrite);

  /** Runs after a successful append, outside the thread lock (durability checkpoint). */
  CompletionStage<CommitRecord> afterAppend(String threadId, CommitRecord record) {
    return CompletableFuture.completedFuture(record);
  }

  private ThreadFold fold(String threadId) {
    return folds.computeIfAbsent(threadId, ThreadFold::new);
  }

  // callers hold the fold's lock
  private void catchUp(ThreadFold f, ThreadLog log) {
    Batch b = log.readFrom(f.consumed());
    for (JsonNode p : b.payloads()) {
      f.apply(p).ifPresent(run -> runThreads.putIfAbsent(run, f.threadId));
    }
    f.consumedUpTo(b.end());
  }

  /** Folds a thread's log now, so the view knows it (rediscovery after a restart). */
  void trackThread(String threadId) {
    ThreadFold f = fold(threadId);
    synchronized (f) {
      log(threadId, false).ifPresent(l -> catchUp(f, l));
    }
  }

  @Override
  public CompletionStage<CommitRecord> commit(ThreadCommit commit, CommitConditions conditions) {
    CommitRecord record;
    try {
      record = commitLocked(commit, conditions);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return afterAppend(commit.threadId(), record);
  }

  private CommitRecord commitLocked(ThreadCommit commit, CommitConditions conditions) {
    Optional<String> invalid = commit.validate();
    if (invalid.isPresent()) {
      throw new CommitRejectedException("invalid", invalid.get());
    }
    ThreadLog log = log(commit.threadId(), true).orElseThrow(() ->
        new CommitStoreException("no live session for thread " + commit.threadId(), null));
    ThreadFold f = fold(commit.threadId());
    Optional<DispatchHook> hook = dispatch;
    synchronized (f) {
      synchronized (hook.map(DispatchHook::lock).orElse(f)) {
        return checkAndAppend(commit, conditions, log, f, hook);
      }
    }
  }

  // callers hold the fold's lock and the paired queue's lock
  private CommitRecord checkAndAppend(ThreadCommit commit, CommitConditions conditions, ThreadLog log,
      ThreadFold f, Optional<DispatchHook> hook) {
    String runId = commit.run().runId();
    catchUp(f, log);
    // a Run commits to one thread; its facts elsewhere count too
    Optional<RunRecord> current = runAnywhere(runId, f);
    if (current.isPresent() && current.get().state().isTerminal()) {
      throw new CommitRejectedException("terminalFinal",
          "run " + runId + " has already ended; later commits are rejected");
    }
    long head = current.map(RunRecord::headSequence).orElse(0L);
    if (conditions.expectedRunHead().isPresent() && conditions.expectedRunHead().getAsLong() != head) {
      throw new CommitRejectedException("runHeadMoved", "run " + runId
          + " moved past the expected commit (expected " + conditions.expectedRunHead().getAsLong()
          + ", found " + head + ")");
    }
    if (conditions.fence().isPresent()
        && !hook.map(h -> h.admits(conditions.fence().get(), commit)).orElse(false)) {
      // without a paired queue there are no dispatch records, so no claim can be current
      LeaseFence fence = conditions.fence().get();
      throw new CommitRejectedException("fenced", "commit for run " + runId
          + " is fenced: the dispatch claim (owner " + fence.owner() + ", epoch " + fence.epoch()
          + ") is no longer current");
    }
    List<ObjectNode> facts = hook.map(h -> h.outbox(commit)).orElse(List.of());
    long seq = f.sequence() + 1;
    long end;
    try {
      end = log.append(ThreadFold.payload(commit, seq), facts);
    } catch (CommitRejectedException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CommitStoreException("appending the commit to thread " + commit.threadId()
          + " failed: " + e.getMessage(), e);
    }
    f.apply(commit, seq);
    f.consumedUpTo(end);
    hook.ifPresent(h -> h.applied(commit.threadId(), facts, end));
    runThreads.put(runId, commit.threadId());
    return new CommitRecord(commit.threadId(), seq);
  }

  private Optional<RunRecord> runAnywhere(String runId, ThreadFold locked) {
    String thread = runThreads.get(runId);
    if (thread == null || thread.equals(locked.threadId)) {
      return locked.run(runId);
    }
    return run(runId);
  }

  @Override
  public CommittedThreadView view() {
    return this;
  }

  private <T> T read(String threadId, java.util.function.Function<ThreadFold, T> reader) {
    ThreadFold f = fold(threadId);
    synchronized (f) {
      log(threadId, false).ifPresent(l -> catchUp(f, l));
      return reader.apply(f);
    }
  }

  @Override
  public List<JsonNode> committedMessages(String threadId) {
    return read(threadId, ThreadFold::messages);
  }

  @Override
  public Optional<RunRecord> run(String runId) {
    String thread = runThreads.get(runId);
    if (thread == null) {
      return Optional.empty();
    }
    return read(thread, f -> f.run(runId));
  }

  @Override
  public Optional<RunRecord> latestRun(String threadId) {
    return read(threadId, ThreadFold::latestRun);
  }

  @Override
  public Map<String, JsonNode> committedState(String threadId) {
    return read(threadId, ThreadFold::state);
  }

  @Override
  public Optional<CommittedRun> committedRun(String runId) {
    String thread = runThreads.get(runId);
    if (thread == null) {
      return Optional.empty();
    }
    return read(thread, f -> f.run(runId).map(r -> new CommittedRun(r, f.runState(runId), f.messages())));
  }

  @Override
  public Map<String, JsonNode> committedRunState(String runId) {
    String thread = runThreads.get(runId);
    if (thread == null) {
      return Map.of();
    }
    return read(thread, f -> f.runState(runId));
  }

  @Override
  public List<ResumeTicket> activeTickets(AwaitReason reason) {
    List<ResumeTicket> out = new ArrayList<>();
    for (String thread : List.copyOf(folds.keySet())) {
      for (RunRecord r : read(thread, ThreadFold::runs)) {
        r.ticket().filter(t -> t.reason() == reason).ifPresent(out::add);
      }
    }
    return out;
  }
}
