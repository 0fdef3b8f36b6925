package dev.horae.invariant.internal;

import dev.horae.spi.session.SessionEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Per-session replay states kept between candidate checks, so each check absorbs only the events
 * appended since the last one instead of replaying the whole log.
 *
 * <p>A cached state is reused only while the log still extends what it covered: same start, no
 * shorter, and the last covered event is the very same object (hosts hand validators the committed
 * instances). Anything else (a resumed or replaced session, another host's session with the same
 * id) replays from scratch. The least recently used states are dropped beyond a fixed number of
 * sessions. One instance per companion registration; thread-safe.
 *
 * @param <S> the replay state
 */
public final class SessionStates<S> {

  private static final int MAX_SESSIONS = 256;

  private record Entry<S>(S state, int start, int position, @Nullable SessionEvent last) {}

  private final Map<String, Entry<S>> entries = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry<S>> eldest) {
      return size() > MAX_SESSIONS;
    }
  };

  /** Creates an empty cache. */
  public SessionStates() {}

  /**
   * The state after absorbing {@code log[start..]}. The caller may read it and must not keep it
   * beyond the current append (appends to one session are serialized by the host).
   *
   * @param sessionId the session id
   * @param log the log, at least {@code start} events long
   * @param start the first event the replay reads (e.g. {@code seedLength})
   * @param fresh makes the state for an empty replay
   * @param absorb applies one event; a throw drops the cached state and propagates
   * @return the state covering the whole log
   */
  public synchronized S covering(
      String sessionId, List<SessionEvent> log, int start, Supplier<S> fresh, BiConsumer<S, SessionEvent> absorb) {
    Entry<S> cached = entries.get(sessionId);
    S state;
    int from;
    if (cached != null && stillExtends(cached, log, start)) {
      state = cached.state();
      from = cached.position();
    } else {
      state = fresh.get();
      from = start;
    }
    entries.remove(sessionId);
    for (SessionEvent event : log.subList(from, log.size())) {
      absorb.accept(state, event);
    }
    entries.put(sessionId, new Entry<>(state, start, log.size(), log.isEmpty() ? null : log.get(log.size() - 1)));
    return state;
  }

  /**
   * Brings the state up to the whole log, then applies the candidate. When the candidate is
   * accepted the state covers it as well, so the next check, once the candidate is committed, has
   * nothing to replay; if it is never committed (another validator vetoed it), the next log does
   * not end with that very event and the state is rebuilt.
   *
   * @param sessionId the session id
   * @param log the log before the candidate, at least {@code start} events long
   * @param candidate the candidate event
   * @param start the first event the replay reads
   * @param fresh makes the state for an empty replay
   * @param absorbLogged applies one committed event
   * @param absorbCandidate applies the candidate, throwing to reject it (the state must then be
   *     unchanged)
   * @throws RuntimeException what {@code absorbCandidate} or {@code absorbLogged} threw
   */
  public synchronized void check(
      String sessionId,
      List<SessionEvent> log,
      SessionEvent candidate,
      int start,
      Supplier<S> fresh,
      BiConsumer<S, SessionEvent> absorbLogged,
      BiConsumer<S, SessionEvent> absorbCandidate) {
    S state = covering(sessionId, log, start, fresh, absorbLogged);
    absorbCandidate.accept(state, candidate);
    entries.put(sessionId, new Entry<>(state, start, log.size() + 1, candidate));
  }

  @SuppressWarnings("ReferenceEquality")
  private static <S> boolean stillExtends(Entry<S> cached, List<SessionEvent> log, int start) {
    if (cached.start() != start || cached.position() > log.size() || cached.position() < start) {
      return false;
    }
    // identity, not equality: an equal event of another log must not vouch for this one
    return cached.position() == start || log.get(cached.position() - 1) == cached.last();
  }
}
