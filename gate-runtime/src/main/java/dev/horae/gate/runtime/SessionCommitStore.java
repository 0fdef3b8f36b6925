package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The commit store over the host's session log (gate specification §12.0): a thread is a session,
 * each {@link ThreadCommit} is one atomic {@link Session#appendAll} of a {@code gate/commit} event,
 * and the {@link CommittedThreadView} is a fold of those events. A fresh store over a resumed
 * session therefore rediscovers every committed ticket by reading the log ({@link #track}).
 *
 * <p>Conditions are checked and the append made under a per-thread lock of this store, so the
 * store must be the only writer of {@code gate/commit} events for its threads in this process.
 * With a flush function, a commit completes only after the session's flush proves durability; a
 * flush that reports {@code false} or fails completes the commit with {@link
 * CommitStoreException} (persistence uncertain).
 */
public final class SessionCommitStore extends LogCommitStore {

  private final Function<String, Optional<Session>> sessions;
  private final Optional<Function<Session, CompletionStage<Boolean>>> flush;

  private SessionCommitStore(Function<String, Optional<Session>> sessions,
      Optional<Function<Session, CompletionStage<Boolean>>> flush) {
    this.sessions = sessions;
    this.flush = flush;
  }

  /**
   * A store resolving thread ids to live sessions, without durability checkpoints.
   *
   * @param sessions thread id to live session (e.g. {@code sessions::get})
   * @return the store
   */
  public static SessionCommitStore over(Function<String, Optional<Session>> sessions) {
    return new SessionCommitStore(sessions, Optional.empty());
  }

  /**
   * A store that flushes the session after every commit before reporting it committed.
   *
   * @param sessions thread id to live session
   * @param flush the durability checkpoint (e.g. {@code sessionsService::flush})
   * @return the store
   */
  public static SessionCommitStore over(Function<String, Optional<Session>> sessions,
      Function<Session, CompletionStage<Boolean>> flush) {
    return new SessionCommitStore(sessions, Optional.of(flush));
  }

  /**
   * Folds a session's log now so the view (and {@link CommittedThreadView#activeTickets}) knows
   * its Runs; used at start to rediscover committed tickets.
   *
   * @param session a live session whose id is a thread id
   */
  public void track(Session session) {
    trackThread(session.id());
  }

  private static final class SessionLog implements ThreadLog {
    private final Session session;

    SessionLog(Session session) {
      this.session = session;
    }

    @Override
    public Batch readFrom(long from) {
      List<SessionEvent> events = session.eventsFrom(from);
      List<JsonNode> out = new ArrayList<>();
      long end = from;
      for (SessionEvent e : events) {
        if (e.type().equals(ThreadFold.EVENT_TYPE)) {
          out.add(e.data());
        }
        end = e.seq() + 1;
      }
      return new Batch(out, end);
    }

    @Override
    public long append(JsonNode payload, List<ObjectNode> dispatchFacts) {
      // the outbox entry lands in the same atomic append as the commit (§12.5.1, §12.5.6)
      List<Candidate> candidates = new ArrayList<>();
      candidates.add(Candidate.logOnly(ThreadFold.EVENT_TYPE, payload));
      dispatchFacts.forEach(f -> candidates.add(Candidate.logOnly(DispatchTable.EVENT_TYPE, f)));
      List<SessionEvent> written = session.appendAll(candidates);
      return written.get(written.size() - 1).seq() + 1;
    }
  }

  @Override
  Optional<ThreadLog> log(String threadId, boolean forWrite) {
    return sessions.apply(threadId).map(SessionLog::new);
  }

  @Override
  CompletionStage<CommitRecord> afterAppend(String threadId, CommitRecord record) {
    if (flush.isEmpty()) {
      return CompletableFuture.completedFuture(record);
    }
    Optional<Session> s = sessions.apply(threadId);
    if (s.isEmpty()) {
      return CompletableFuture.failedFuture(
          new CommitStoreException("no live session for thread " + threadId, null));
    }
    CompletionStage<Boolean> flushed;
    try {
      flushed = flush.get().apply(s.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(
          new CommitStoreException("persistence uncertain for thread " + threadId, e));
    }
    return flushed.handle((ok, err) -> {
      if (err != null || !Boolean.TRUE.equals(ok)) {
        throw new CommitStoreException("persistence uncertain for thread " + threadId, err);
      }
      return record;
    });
  }
}
