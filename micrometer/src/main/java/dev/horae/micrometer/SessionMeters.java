package dev.horae.micrometer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the meters need to remember of one session's log, taken event by event in seq order: the
 * reminders' fold (for the pending gauge and each dispatch's due time), the open turn's start, the
 * open model call's start, and whether the open turn's first step has claimed a message yet.
 * Events before {@code liveFrom} are folded but not counted. Callers hold the object's monitor.
 */
final class SessionMeters {

  /**
   * Time readings are decided by the pre-step waterfall (host contract §6.2, docs/reference/host.md),
   * never queued on an inbox lane, so they are not wakes.
   */
  private static final String TIME_CONTEXT = "time-context";

  private final ScheduleFold fold;
  private final long liveFrom;
  private long next;
  private boolean foldBroken;
  private long turnStart = -1;
  private long requestAt = -1;
  private boolean firstStep;
  private boolean firstClaimed;

  SessionMeters(long seedLength, long liveFrom) {
    this.fold = ScheduleFold.start(seedLength);
    this.liveFrom = liveFrom;
    // a fork's inherited seed is the parent's history, never this session's
    this.next = seedLength;
  }

  /** Takes every event before {@code upTo} not taken yet. */
  void catchUp(Session session, long upTo, HoraeMetrics.Meters m) {
    if (next >= upTo) {
      return;
    }
    for (SessionEvent e : session.eventsFrom(next)) {
      if (e.seq() >= upTo) {
        break;
      }
      take(e, m);
    }
  }

  /** The active reminders, or 0 for a log whose reminders do not fold. */
  long pending() {
    return foldBroken ? 0 : fold.activeCount();
  }

  /** Takes the next event; one already taken is ignored. */
  void take(SessionEvent e, HoraeMetrics.Meters m) {
    if (e.seq() != next) {
      return;
    }
    next++;
    boolean live = e.seq() >= liveFrom;
    JsonNode d = e.data();
    switch (e.type()) {
      case EventTypes.SCHEDULE_CHANGE -> schedule(e, live, m);
      case EventTypes.TURN_START -> {
        turnStart = e.time();
        firstStep = false;
        firstClaimed = false;
      }
      case EventTypes.STEP_START -> firstStep = d.path("step").asLong() == 1;
      case EventTypes.USER_MESSAGE -> claimed(d, live, m);
      case EventTypes.REQUEST_HEADER -> requestAt = e.time();
      case EventTypes.ASSISTANT_MESSAGE -> answered(e, live, m);
      case EventTypes.TURN_END -> {
        if (live && turnStart >= 0) {
          m.turn(d.path("reason").asText("unknown")).record(elapsed(turnStart, e.time()), TimeUnit.MILLISECONDS);
        }
        turnStart = -1;
      }
      case "gate/commit" -> {
        if (live) {
          for (JsonNode fact : d.path("commit").path("events")) {
            if (fact.path("type").asText().equals("permissionDecided")) {
              m.counter(HoraeMetrics.GATE_OUTCOMES, "kind", fact.path("decision").asText("unknown")).increment();
            }
          }
        }
      }
      default -> { }
    }
    if (!foldBroken && !e.type().equals(EventTypes.SCHEDULE_CHANGE)) {
      fold.absorb(List.of(e));
    }
  }

  private void schedule(SessionEvent e, boolean live, HoraeMetrics.Meters m) {
    if (foldBroken) {
      return;
    }
    try {
      ScheduleChange change = ChangeCodec.decode(e);
      Optional<ScheduleRecord> due = fold.activeRecord(change.id());
      fold.absorb(List.of(e));
      if (live && change instanceof ScheduleChange.Dispatch && due.isPresent()) {
        m.dispatched.increment();
        m.lateness.record(elapsed(due.get().scheduledAtMillis(), e.time()), TimeUnit.MILLISECONDS);
      }
    } catch (CorruptScheduleLogException bad) {
      // Schedule itself refuses such a log; the gauge leaves the session out rather than guess
      foldBroken = true;
    }
  }

  private void claimed(JsonNode d, boolean live, HoraeMetrics.Meters m) {
    JsonNode source = d.path("source");
    boolean opening = firstStep && !firstClaimed;
    if (firstStep) {
      firstClaimed = true;
    }
    String plugin = source.path("plugin").asText("");
    if (live && source.path("kind").asText().equals("plugin") && !plugin.equals(TIME_CONTEXT)) {
      // the first message of a turn's first step is the one that opened the turn (it woke the agent)
      m.counter(HoraeMetrics.WAKES, "source", plugin, "lane", opening ? "followup" : "inject").increment();
      if (MessageSource.wakeBudgetExhausted(source)) {
        m.counter(HoraeMetrics.WAKES_BUDGET_EXHAUSTED, "source", plugin).increment();
      }
    }
  }

  private void answered(SessionEvent e, boolean live, HoraeMetrics.Meters m) {
    if (live && requestAt >= 0) {
      m.modelCalls.record(elapsed(requestAt, e.time()), TimeUnit.MILLISECONDS);
    }
    requestAt = -1;
    JsonNode usage = e.data().path("usage");
    if (live && usage.isObject()) {
      m.inputTokens.increment((double) Math.max(0, usage.path("input").asLong()));
      m.outputTokens.increment((double) Math.max(0, usage.path("output").asLong()));
    }
  }

  /** Wall-clock differences; a clock stepped backwards counts as no time rather than negative. */
  private static long elapsed(long from, long to) {
    return Math.max(0, to - from);
  }
}
