package dev.horae.invariant;

import dev.horae.invariant.internal.RunFacts;
import dev.horae.invariant.internal.SessionStates;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The gate runtime's invariant companion, owner {@link Owners#GATE}. A thread is a session (gate
 * spec §12.0): each {@code gate/commit} event records one {@code ThreadCommit} with its commit
 * sequence, and the committed view is a fold of those events. The companion rejects a commit the
 * fold could not accept:
 *
 * <ol>
 *   <li>a payload that is not {@code {"sequence": n, "commit": <ThreadCommit>}} with a commit the
 *       gate codec decodes (a run fact of a known shape; an awaiting fact carries a decodable
 *       ticket) → {@code gate commit payload is malformed: <why>};
 *   <li>a commit whose own validation fails (§5.1, e.g. an awaiting ticket of another thread) →
 *       the commit's {@code invalid thread commit: ...} text;
 *   <li>a sequence that does not continue the log's commits gap-free from 1 → {@code gate commit
 *       sequence must be <e>, found <f>};
 *   <li>any fact for a Run whose latest fact is {@code ended} (terminal is final, §5.4) → {@code
 *       run <runId> has already ended; later commits are rejected}.
 * </ol>
 *
 * <p>Checks run in that order; the first failure wins. Other event types are ignored.
 */
public final class GateCompanion implements LogCompanion {

  /** The session event type that carries one commit. */
  public static final String COMMIT_EVENT = RunFacts.COMMIT_EVENT;

  private static final GateCompanion INSTANCE = new GateCompanion();

  private GateCompanion() {}

  /**
   * The companion.
   *
   * @return the shared stateless instance
   */
  public static GateCompanion instance() {
    return INSTANCE;
  }

  @Override
  public String owner() {
    return Owners.GATE;
  }

  @Override
  public Optional<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    if (!candidate.type().equals(COMMIT_EVENT)) {
      return Optional.empty();
    }
    RunFacts facts = new RunFacts();
    for (SessionEvent event : log) {
      if (event.type().equals(COMMIT_EVENT)) {
        // an earlier bad commit is reported by its own check; here it counts as vetoed
        facts.accept(event.data());
      }
    }
    return facts.accept(candidate.data()).map(m -> LogFinding.at(owner(), candidate.seq(), m));
  }

  /**
   * The installed checks keep each session's run facts between appends, so a candidate costs only
   * the commits appended since the previous check; the verdicts equal {@link #checkAppend}'s.
   *
   * @param fail the invariant service's fail function
   * @return checks with their own per-session cache
   */
  @Override
  public InvariantChecks checks(InvariantFail fail) {
    InvariantChecks whole = LogCompanion.super.checks(fail);
    SessionStates<RunFacts> states = new SessionStates<>();
    return new InvariantChecks() {
      @Override
      public void checkSession(SessionHeader header, List<SessionEvent> log) {
        whole.checkSession(header, log);
      }

      @Override
      public void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
        if (!candidate.type().equals(COMMIT_EVENT)) {
          return;
        }
        states.check(header.id(), log, candidate, 0, RunFacts::new,
            (facts, e) -> {
              if (e.type().equals(COMMIT_EVENT)) {
                // an illegal committed commit counts as vetoed, as in checkLog
                facts.accept(e.data());
              }
            },
            (facts, c) -> facts.accept(c.data()).ifPresent(violation -> {
              throw fail.fail(violation);
            }));
      }
    };
  }

  @Override
  public List<LogFinding> checkLog(SessionHeader header, List<SessionEvent> log) {
    RunFacts facts = new RunFacts();
    List<LogFinding> found = new ArrayList<>();
    for (SessionEvent event : log) {
      if (event.type().equals(COMMIT_EVENT)) {
        facts.accept(event.data()).ifPresent(m -> found.add(LogFinding.at(owner(), event.seq(), m)));
      }
    }
    return List.copyOf(found);
  }
}
