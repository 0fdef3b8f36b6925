package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The session-log dispatch backend (gate specification §12.5.6, "dispatch facts are lines of the
 * same log"): every dispatch fact is a {@code gate/dispatch} event in the session log of the
 * Run's thread, beside its {@code gate/commit} events, and the outbox fact of a commit is part of
 * the commit's own atomic {@link Session#appendAll}. Leases and renewals are not written: a record
 * found running when a session is {@linkplain #track tracked} counts as expired, so its recovery
 * starts at once and increments the attempt count.
 *
 * <p>Dispatch-only facts (claims, settles, inbox changes) are appended without a flush of their
 * own; they reach the store with the session's next flush, at the latest the flush of the
 * attempt's first commit — so every attempt that could have entered an executor has its claim
 * (and attempt count) durable. Like {@link SessionCommitStore}, the queue must be the only writer
 * of {@code gate/dispatch} events for its sessions.
 */
public final class SessionDispatchQueue extends FactDispatchQueue {

  private final Function<String, Optional<Session>> sessions;
  private final SessionCommitStore store;
  // per thread, the log position up to which dispatch facts are folded; guarded by lock()
  private final Map<String, Long> positions = new HashMap<>();

  private SessionDispatchQueue(Function<String, Optional<Session>> sessions, SessionCommitStore store) {
    this.sessions = sessions;
    this.store = store;
    store.attach(hook());
  }

  /**
   * A queue and its commit store over live sessions, without durability checkpoints.
   *
   * @param sessions thread id to live session
   * @return the queue
   */
  public static SessionDispatchQueue over(Function<String, Optional<Session>> sessions) {
    return new SessionDispatchQueue(sessions, SessionCommitStore.over(sessions));
  }

  /**
   * A queue whose commit store flushes the session after every commit before reporting it.
   *
   * @param sessions thread id to live session
   * @param flush the durability checkpoint
   * @return the queue
   */
  public static SessionDispatchQueue over(Function<String, Optional<Session>> sessions,
      Function<Session, CompletionStage<Boolean>> flush) {
    return new SessionDispatchQueue(sessions, SessionCommitStore.over(sessions, flush));
  }

  /**
   * Folds a session's commits and dispatch facts now, so the view, reconciliation and claims know
   * its Runs; used at start to rediscover committed tickets and dispatch records.
   *
   * @param session a live session whose id is a thread id
   * @throws IllegalArgumentException when a dispatch fact in the log is malformed
   */
  @Override
  public void track(Session session) {
    store.track(session);
    synchronized (lock()) {
      catchUp(session.id());
    }
  }

  @Override
  public SessionCommitStore store() {
    return store;
  }

  @Override
  void catchUp(String threadId) {
    Optional<Session> s = sessions.apply(threadId);
    if (s.isEmpty()) {
      return;
    }
    long from = positions.getOrDefault(threadId, 0L);
    long end = from;
    for (SessionEvent e : s.get().eventsFrom(from)) {
      // a fork's inherited prefix carries the parent's facts: they belong to the parent thread
      if (e.type().equals(DispatchTable.EVENT_TYPE) && e.data().path("threadId").asText().equals(threadId)
          && e.data() instanceof ObjectNode fact) {
        replay(fact);
      }
      end = e.seq() + 1;
    }
    positions.put(threadId, end);
  }

  @Override
  void write(String threadId, List<ObjectNode> facts) {
    Session s = sessions.apply(threadId).orElseThrow(() ->
        new CommitStoreException("no live session for thread " + threadId, null));
    List<Candidate> candidates = new ArrayList<>();
    facts.forEach(f -> candidates.add(Candidate.logOnly(DispatchTable.EVENT_TYPE, f)));
    List<SessionEvent> written;
    try {
      written = s.appendAll(candidates);
    } catch (RuntimeException e) {
      throw new CommitStoreException("appending dispatch facts to thread " + threadId + " failed: "
          + e.getMessage(), e);
    }
    // only this queue writes dispatch facts, so nothing between the last catch-up and here is one
    positions.put(threadId, written.get(written.size() - 1).seq() + 1);
  }

  @Override
  void landed(String threadId, long logEnd) {
    positions.put(threadId, logEnd);
  }
}
