package dev.horae.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.AwaitReason;
import dev.horae.gate.runtime.SessionCommitStore;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.runtime.gate.TurnRun;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ScheduleChange;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.LogSessions;
import dev.horae.store.MemorySessionStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one stored session's log says, for the read-only commands. Nothing here writes: the
 * gate's committed view is folded over a copy of the log in memory, with the gate runtime's own
 * fold ({@link SessionCommitStore}), so a call counts as awaiting by exactly the rule the runtime
 * applies when it reopens the session.
 */
final class LogView {

  /** The reminders' states as the log records them. */
  static final String SCHEDULED = "scheduled";
  static final String DISPATCHED = "dispatched";
  static final String DELETED = "deleted";

  /**
   * One reminder.
   *
   * @param session the session
   * @param id the schedule id
   * @param due the canonical UTC due time
   * @param state scheduled, dispatched or deleted
   * @param prompt the reminder's prompt
   * @param changedAt when it was dispatched or deleted (epoch ms), if it was
   */
  record Reminder(String session, String id, String due, String state, String prompt, OptionalLong changedAt) {

    /** The reminder as {@code horae --json reminders} lists it. */
    ObjectNode json() {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("due", due).put("state", state).put("session", session).put("id", id);
      o.put("changedAt", changedAt.isPresent() ? time(changedAt.getAsLong()) : null);
      o.put("prompt", prompt);
      return o;
    }
  }

  /** An instant as the command line prints it. */
  static String time(long epochMs) {
    return Instant.ofEpochMilli(epochMs).toString();
  }

  /** A parked call as {@code horae --json runs --awaiting} lists it. */
  static ObjectNode json(AwaitingCall a) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("runId", a.runId()).put("session", a.sessionId()).put("callId", a.callId())
        .put("reason", a.reason().wireName()).put("tool", a.toolId());
    o.set("arguments", a.arguments());
    o.put("deadline", a.ticket().deadlineMs().isPresent() ? time(a.ticket().deadlineMs().getAsLong()) : null);
    return o;
  }

  /** The session as {@code horae --json sessions} lists it, given its {@link #awaiting()} calls. */
  ObjectNode summary(List<AwaitingCall> awaiting) {
    long pending = reminders().stream().filter(r -> r.state().equals(SCHEDULED)).count();
    Optional<SessionEvent> last = last();
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("session", id()).put("events", events().size()).put("createdAt", time(stored.header().createdAt()));
    o.put("timeZone", stored.header().timeZone().orElse(null));
    o.put("lastEventAt", last.map(e -> time(e.time())).orElse(null));
    o.put("state", turnState(awaiting)).put("pendingReminders", pending).put("awaiting", awaiting.size());
    return o;
  }

  /**
   * A job notice the log holds: a settled job reported to its owner.
   *
   * @param session the owner's session
   * @param at when the notice was claimed (epoch ms)
   * @param summary the notice's summary ({@code <kind> <label> <status line>})
   */
  record JobNotice(String session, long at, String summary) {}

  private final StoredSession stored;

  LogView(StoredSession stored) {
    this.stored = stored;
  }

  String id() {
    return stored.header().id();
  }

  StoredSession stored() {
    return stored;
  }

  List<SessionEvent> events() {
    return stored.events();
  }

  /** Every reminder the session created, in creation order; a log Schedule cannot fold lists what it could. */
  List<Reminder> reminders() {
    Map<String, Reminder> byId = new LinkedHashMap<>();
    List<SessionEvent> log = stored.events();
    for (int i = (int) Math.min(stored.header().seedLength(), log.size()); i < log.size(); i++) {
      SessionEvent e = log.get(i);
      if (!e.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        continue;
      }
      ScheduleChange change;
      try {
        change = ChangeCodec.decode(e.data());
      } catch (CorruptScheduleLogException bad) {
        // `check` reports the broken change; the listing shows the reminders it can read
        continue;
      }
      if (change instanceof ScheduleChange.Create c) {
        byId.put(c.id(), new Reminder(id(), c.id(), c.record().scheduledAt(), SCHEDULED, c.record().prompt(), OptionalLong.empty()));
      } else {
        Reminder r = byId.get(change.id());
        if (r != null && r.state().equals(SCHEDULED)) {
          String state = change instanceof ScheduleChange.Dispatch ? DISPATCHED : DELETED;
          byId.put(r.id(), new Reminder(r.session(), r.id(), r.due(), state, r.prompt(), OptionalLong.of(e.time())));
        }
      }
    }
    return new ArrayList<>(byId.values());
  }

  /** The calls parked on a committed resume ticket. */
  List<AwaitingCall> awaiting() {
    MemorySessionStore copy = new MemorySessionStore();
    copy.put(stored);
    // no appends happen here, so neither the clock nor the warnings are ever consulted
    LogSessions sessions = LogSessions.over(copy, InstantSource.fixed(Instant.EPOCH), (message, cause) -> { });
    Session session = sessions.resume(id());
    SessionCommitStore commits = SessionCommitStore.over(sessions::get);
    commits.track(session);
    List<AwaitingCall> out = new ArrayList<>();
    for (AwaitReason reason : List.of(AwaitReason.TOOL_PERMISSION, AwaitReason.SCHEDULED_ACTION)) {
      commits.view().activeTickets(reason).forEach(t -> AwaitingCall.of(t).ifPresent(out::add));
    }
    return out;
  }

  /** The open turn's number, if a turn is open (running elsewhere, parked, or cut by a crash). */
  OptionalLong openTurn() {
    long open = -1;
    for (SessionEvent e : stored.events()) {
      if (e.type().equals(EventTypes.TURN_START)) {
        open = e.data().path("turn").asLong();
      } else if (e.type().equals(EventTypes.TURN_END)) {
        open = -1;
      }
    }
    return open < 0 ? OptionalLong.empty() : OptionalLong.of(open);
  }

  /** {@code idle}, {@code parked turn-<n>} (on a ticket) or {@code open turn-<n>}. */
  String turnState(List<AwaitingCall> awaiting) {
    OptionalLong open = openTurn();
    if (open.isEmpty()) {
      return "idle";
    }
    String run = TurnRun.runId(id(), open.getAsLong());
    boolean parked = awaiting.stream().anyMatch(a -> a.runId().equals(run));
    return (parked ? "parked turn-" : "open turn-") + open.getAsLong();
  }

  /** The job notices the session's agent claimed. */
  List<JobNotice> jobNotices() {
    List<JobNotice> out = new ArrayList<>();
    for (SessionEvent e : stored.events()) {
      JsonNode source = e.data().path("source");
      if (e.type().equals(EventTypes.USER_MESSAGE) && source.path("plugin").asText().equals(JOBS_PLUGIN)
          && source.path("form").asText().equals("notice")) {
        out.add(new JobNotice(id(), e.time(), source.path("summary").asText("")));
      }
    }
    return out;
  }

  /** The source name of job notices (jobs spec §4, docs/reference/jobs.md). */
  static final String JOBS_PLUGIN = "tool-jobs";

  Optional<SessionEvent> last() {
    List<SessionEvent> log = stored.events();
    return log.isEmpty() ? Optional.empty() : Optional.of(log.get(log.size() - 1));
  }
}
