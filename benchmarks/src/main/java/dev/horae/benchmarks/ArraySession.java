package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.RandomAccess;

/**
 * A minimal append-only session over an array list, for logs of a million events built in seconds.
 * Events share their payload nodes, which callers must treat as read-only. It can be cut back to a
 * marked length between benchmark iterations, which no real session allows. Not thread-safe.
 */
public final class ArraySession implements Session {

  private final List<SessionEvent> events = new ArrayList<>();
  private final SessionHeader header;
  private int base;

  /**
   * An empty session.
   *
   * @param id the session id
   * @param createdAt the header's creation time, epoch milliseconds
   */
  public ArraySession(String id, long createdAt) {
    this.header = SessionHeader.root(id, createdAt, Optional.empty());
  }

  /**
   * Appends a log-only event at {@code time}.
   *
   * @param type the event type
   * @param time the event time, epoch milliseconds
   * @param data the payload, shared
   */
  public void add(String type, long time, JsonNode data) {
    events.add(SessionEvent.of(events.size(), type, time, data));
  }

  /** Marks the current length as the one {@link #resetToMark()} returns to. */
  public void mark() {
    base = events.size();
  }

  /** Drops every event appended after {@link #mark()}. */
  public void resetToMark() {
    events.subList(base, events.size()).clear();
  }

  /**
   * The time of the last event.
   *
   * @return epoch milliseconds, or the creation time of an empty session
   */
  public long lastTime() {
    return events.isEmpty() ? header.createdAt() : events.get(events.size() - 1).time();
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
    return eventsFrom(0);
  }

  /**
   * A read-only view of the events from {@code fromSeq} to the current end, not a copy: the
   * production session answers a view too (session-store's {@code LogSession}), and a copy of a
   * million events cost the time-context first-step benchmark 30 ms of its 32 (2026-12-05). The
   * list only grows between {@link #resetToMark()} calls, so a view keeps its range until then.
   */
  @Override
  public List<SessionEvent> eventsFrom(long fromSeq) {
    int from = (int) Math.max(0, Math.min(fromSeq, events.size()));
    return new Range(events, from, events.size());
  }

  /** Events {@code [from, to)} of a list that only grows. */
  private static final class Range extends AbstractList<SessionEvent> implements RandomAccess {
    private final List<SessionEvent> all;
    private final int from;
    private final int to;

    Range(List<SessionEvent> all, int from, int to) {
      this.all = all;
      this.from = from;
      this.to = to;
    }

    @Override
    public SessionEvent get(int index) {
      Objects.checkIndex(index, to - from);
      return all.get(from + index);
    }

    @Override
    public int size() {
      return to - from;
    }
  }

  @Override
  public long length() {
    return events.size();
  }

  @Override
  public SessionEvent append(String type, JsonNode data, AppendOptions options) {
    SessionEvent event =
        new SessionEvent(
            events.size(), type, lastTime(), data, options.surfaceOp(), options.sourceEventSeqs());
    events.add(event);
    return event;
  }

  @Override
  public List<SessionEvent> appendAll(List<Candidate> candidates) {
    List<SessionEvent> out = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      out.add(append(c.type(), c.data(), c.options()));
    }
    return out;
  }
}
