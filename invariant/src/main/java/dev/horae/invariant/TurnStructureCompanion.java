package dev.horae.invariant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The turn structure of host contract §6.1, checked on every append and over whole logs: turns
 * open and close in order with increasing numbers, steps open and close inside their turn in
 * order from 1, no turn ends while a step is open, and every {@code turn/end} has one of the
 * contract's reasons. Only the four markers are checked; every other event may stand anywhere.
 *
 * <p>An append is checked against the log's tail only: the scan stops at the nearest turn
 * boundary, so the cost is bounded by the length of one turn, not of the log.
 */
public final class TurnStructureCompanion implements LogCompanion {

  /** The turn end reasons of host contract §6.1. */
  static final Set<String> REASONS = Set.of("completed", "blocked", "aborted", "error", "max-tokens", "interrupted");

  private static final TurnStructureCompanion INSTANCE = new TurnStructureCompanion();

  private TurnStructureCompanion() {}

  /**
   * The companion.
   *
   * @return the instance
   */
  public static TurnStructureCompanion instance() {
    return INSTANCE;
  }

  @Override
  public String owner() {
    return Owners.TURNS;
  }

  /** Where a log stands: the open turn (or the last closed one) and its step. */
  private static final class State {
    long lastTurn;
    boolean turnOpen;
    long lastStep;
    boolean stepOpen;

    /** The violation the marker would cause, or empty; applies it when it is legal. */
    Optional<String> apply(SessionEvent e) {
      if (!marker(e.type())) {
        // an event holds its payload as text: parse only the markers this state reads
        return Optional.empty();
      }
      JsonNode d = e.data();
      switch (e.type()) {
        case EventTypes.TURN_START -> {
          long turn = d.path("turn").asLong(-1);
          if (turnOpen) {
            return Optional.of("turn/start of turn " + turn + " while turn " + lastTurn + " is open");
          }
          if (!d.path("turn").canConvertToLong() || turn < 1 || turn <= lastTurn) {
            return Optional.of("turn/start must carry a turn number above " + lastTurn + ", got " + d.path("turn"));
          }
          lastTurn = turn;
          turnOpen = true;
          lastStep = 0;
          stepOpen = false;
        }
        case EventTypes.STEP_START -> {
          if (!turnOpen || d.path("turn").asLong(-1) != lastTurn) {
            return Optional.of("step/start " + d + " outside its turn");
          }
          if (stepOpen) {
            return Optional.of("step/start of step " + d.path("step") + " while step " + lastStep + " is open");
          }
          if (d.path("step").asLong(-1) != lastStep + 1) {
            return Optional.of("step/start must carry step " + (lastStep + 1) + ", got " + d.path("step"));
          }
          lastStep++;
          stepOpen = true;
        }
        case EventTypes.STEP_END -> {
          if (!stepOpen || d.path("turn").asLong(-1) != lastTurn || d.path("step").asLong(-1) != lastStep) {
            return Optional.of("step/end " + d + " closes no open step");
          }
          stepOpen = false;
        }
        case EventTypes.TURN_END -> {
          if (!turnOpen || d.path("turn").asLong(-1) != lastTurn) {
            return Optional.of("turn/end " + d + " closes no open turn");
          }
          if (stepOpen) {
            return Optional.of("turn/end of turn " + lastTurn + " while step " + lastStep + " is open");
          }
          if (!REASONS.contains(d.path("reason").asText())) {
            return Optional.of("turn/end reason must be one of " + new java.util.TreeSet<>(REASONS) + ", got " + d.path("reason"));
          }
          turnOpen = false;
        }
        default -> { }
      }
      return Optional.empty();
    }
  }

  private static boolean marker(String type) {
    return type.equals(EventTypes.TURN_START) || type.equals(EventTypes.STEP_START)
        || type.equals(EventTypes.STEP_END) || type.equals(EventTypes.TURN_END);
  }

  /** The state at the end of {@code log}, read backwards to the nearest turn boundary. */
  private static State tail(List<SessionEvent> log) {
    int i = log.size() - 1;
    while (i >= 0 && !log.get(i).type().equals(EventTypes.TURN_START) && !log.get(i).type().equals(EventTypes.TURN_END)) {
      i--;
    }
    State s = new State();
    if (i < 0) {
      return s;
    }
    SessionEvent boundary = log.get(i);
    s.lastTurn = boundary.data().path("turn").asLong(0);
    if (boundary.type().equals(EventTypes.TURN_END)) {
      return s;
    }
    s.turnOpen = true;
    for (int j = i + 1; j < log.size(); j++) {
      SessionEvent e = log.get(j);
      if (e.type().equals(EventTypes.STEP_START)) {
        s.lastStep = e.data().path("step").asLong(0);
        s.stepOpen = true;
      } else if (e.type().equals(EventTypes.STEP_END)) {
        s.stepOpen = false;
      }
    }
    return s;
  }

  @Override
  public Optional<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    if (!marker(candidate.type())) {
      return Optional.empty();
    }
    return tail(log).apply(candidate).map(m -> LogFinding.at(owner(), candidate.seq(), m));
  }

  @Override
  public List<LogFinding> checkLog(SessionHeader header, List<SessionEvent> log) {
    State s = new State();
    List<LogFinding> found = new ArrayList<>();
    for (SessionEvent e : log) {
      if (marker(e.type())) {
        s.apply(e).ifPresent(m -> found.add(LogFinding.at(owner(), e.seq(), m)));
      }
    }
    return found;
  }
}
