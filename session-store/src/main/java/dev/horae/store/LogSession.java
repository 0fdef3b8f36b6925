package dev.horae.store;

import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.AppendValidator;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One live session: its header and raw log, appended under a per-session lock so that
 * appends are linearizable (host contract §3.4).
 */
final class LogSession implements Session {

  private final LogSessions owner;
  private final SessionHeader header;
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by {@link #lock}. */
  private final AppendOnlyLog log;
  private volatile boolean live = true;

  LogSession(LogSessions owner, SessionHeader header, List<SessionEvent> initial) {
    this.owner = owner;
    this.header = header;
    this.log = new AppendOnlyLog(initial);
  }

  @Override
  public String id() {
    return header.id();
  }

  @Override
  public SessionHeader header() {
    return header;
  }

  @Override
  public List<SessionEvent> events() {
    lock.lock();
    try {
      return log.snapshot();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<SessionEvent> eventsFrom(long fromSeq) {
    if (fromSeq < 0) {
      throw new IllegalArgumentException("fromSeq must be >= 0, got " + fromSeq);
    }
    lock.lock();
    try {
      return log.from((int) Math.min(fromSeq, Integer.MAX_VALUE));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public long length() {
    lock.lock();
    try {
      return log.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public SessionEvent append(String type, JsonNode data, AppendOptions options) {
    return appendAll(List.of(new Candidate(type, data, options))).get(0);
  }

  @Override
  public List<SessionEvent> appendAll(List<Candidate> candidates) {
    // validators and observers run inside the lock on this thread, so holding it means nesting
    if (lock.isHeldByCurrentThread()) {
      throw new IllegalStateException(
          "nested append to session \"" + id() + "\": validators and observers must not append to the session they run for");
    }
    lock.lock();
    try {
      requireLive();
      if (candidates.isEmpty()) {
        return List.of();
      }
      long time = owner.wallMillis();
      List<AppendValidator> validators = owner.validators();
      List<SessionEvent> pending = new ArrayList<>(candidates.size());
      for (Candidate c : candidates) {
        // refused before anything is appended: a store would acknowledge data it cannot read
        // back (a file-store line holds the data inside its array and the event object)
        Json.checkReadable(c.data(), 2);
        // the event writes the payload out, so the caller's later changes to it never reach the log
        SessionEvent event = new SessionEvent(
            (long) log.size() + pending.size(), c.type(), time, c.data(),
            c.options().surfaceOp(), c.options().sourceEventSeqs());
        List<SessionEvent> before = pending.isEmpty() ? log.snapshot() : new LogView(log.snapshot(), pending);
        for (AppendValidator v : validators) {
          v.validate(header, before, event);
        }
        pending.add(event);
      }
      log.addAll(pending);
      List<SessionEvent> committed = List.copyOf(pending);
      for (SessionEvent event : committed) {
        owner.notifyObservers(this, event);
      }
      return committed;
    } finally {
      lock.unlock();
    }
  }

  /** Header and log taken together, so a flush never sees half of an atomic append. */
  Persisted persistedView() {
    lock.lock();
    try {
      return new Persisted(header, events());
    } finally {
      lock.unlock();
    }
  }

  record Persisted(SessionHeader header, List<SessionEvent> log) {}

  boolean isLive() {
    return live;
  }

  void detach() {
    live = false;
  }

  private void requireLive() {
    if (!live) {
      throw new IllegalStateException("session \"" + id() + "\" is not live");
    }
  }

  @Override
  public String toString() {
    return "LogSession[" + id() + "]";
  }

  /**
   * The read-only log a validator sees during an atomic append: the committed events followed by the
   * earlier candidates of the same append.
   */
  private static final class LogView extends AbstractList<SessionEvent> {
    private final List<SessionEvent> committed;
    private final List<SessionEvent> pending;
    private final int committedSize;
    private final int size;

    LogView(List<SessionEvent> committed, List<SessionEvent> pending) {
      this.committed = committed;
      this.pending = List.copyOf(pending);
      this.committedSize = committed.size();
      this.size = committedSize + pending.size();
    }

    @Override
    public SessionEvent get(int index) {
      if (index < 0 || index >= size) {
        throw new IndexOutOfBoundsException("index " + index + " outside 0.." + (size - 1));
      }
      return index < committedSize ? committed.get(index) : pending.get(index - committedSize);
    }

    @Override
    public int size() {
      return size;
    }
  }
}
