package dev.horae.console;

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
 * What one stored session's log says, for the command line's read-only commands and the web
 * console. Nothing here writes: the
 * gate's committed view is folded over a copy of the log in memory, with the gate runtime's own
 * fold ({@link SessionCommitStore}), so a call counts as awaiting by exactly the rule the runtime
 * applies when it reopens the session.
 */
public final class LogView {

  /** The reminders' states as the log records them. */
  /** A reminder that has not fired yet. */
  public static final String SCHEDULED = "scheduled";
  /** A reminder that was dispatched to its agent. */
  public static final String DISPATCHED = "dispatched";
  /** A reminder that was deleted before it fired. */
  public static final String DELETED = "deleted";

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
  public record Reminder(String session, String id, String due, String state, String prompt, OptionalLong changedAt) {

    /**
     * The reminder as {@code horae --json reminders} lists it.
     *
     * @return the JSON object
     */
    public ObjectNode json() {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("due", due).put("state", state).put("session", session).put("id", id);
      o.put("changedAt", changedAt.isPresent() ? time(changedAt.getAsLong()) : null);
      o.put("prompt", prompt);
      return o;
    }
  }

  /**
   * An instant as the command line prints it.
   *
   * @param epochMs the instant in epoch milliseconds
   * @return its ISO-8601 text
   */
  public static String time(long epochMs) {
    return Instant.ofEpochMilli(epochMs).toString();
  }

  /**
   * A parked call as {@code horae --json runs --awaiting} lists it.
   *
   * @param a the call
   * @return the JSON object
   */
  public static ObjectNode json(AwaitingCall a) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("runId", a.runId()).put("session", a.sessionId()).put("callId", a.callId())
        .put("reason", a.reason().wireName()).put("tool", a.toolId());
    o.set("arguments", a.arguments());
    o.put("deadline", a.ticket().deadlineMs().isPresent() ? time(a.ticket().deadlineMs().getAsLong()) : null);
    return o;
  }

  /**
   * The session as {@code horae --json sessions} lists it.
   *
   * @param awaiting its {@link #awaiting()} calls
   * @return the JSON object
   */
  public ObjectNode summary(List<AwaitingCall> awaiting) {
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
  public record JobNotice(String session, long at, String summary) {}

  private final StoredSession stored;

  /**
   * The view of one stored session.
   *
   * @param stored the session's header and log
   */
  public LogView(StoredSession stored) {
    this.stored = stored;
  }

  /**
   * The session id.
   *
   * @return the id
   */
  public String id() {
    return stored.header().id();
  }

  /**
   * The stored session.
   *
   * @return its header and log
   */
  public StoredSession stored() {
    return stored;
  }

  /**
   * The log.
   *
   * @return the events, oldest first
   */
  public List<SessionEvent> events() {
    return stored.events();
  }

  /**
   * Every reminder the session created, in creation order; of a log Schedule cannot fold, the
   * reminders it could read.
   *
   * @return the reminders
   */
  public List<Reminder> reminders() {
    Map<String, Reminder> byId = new LinkedHashMap<>();
    List<SessionEvent> log = stored.events();
    for (int i = (int) Math.min(stored.header().seedLength(), log.size()); i < log.size(); i++) {
      SessionEvent e = log.get(i);
      if (!e.type().equals(EventTypes.SCHEDULE_CHANGE)) {
        continue;
      }
      ScheduleChange change;
      try {
        change = ChangeCodec.decode(e);
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

  /**
   * The calls parked on a committed resume ticket.
   *
   * @return the calls, {@code toolPermission} ones first
   */
  public List<AwaitingCall> awaiting() {
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

  /**
   * The open turn's number, if a turn is open (running elsewhere, parked, or cut by a crash).
   *
   * @return the turn number, or empty when the session is idle
   */
  public OptionalLong openTurn() {
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

  /**
   * {@code idle}, {@code parked turn-<n>} (on a ticket) or {@code open turn-<n>}.
   *
   * @param awaiting the session's {@link #awaiting()} calls
   * @return the state
   */
  public String turnState(List<AwaitingCall> awaiting) {
    OptionalLong open = openTurn();
    if (open.isEmpty()) {
      return "idle";
    }
    String run = TurnRun.runId(id(), open.getAsLong());
    boolean parked = awaiting.stream().anyMatch(a -> a.runId().equals(run));
    return (parked ? "parked turn-" : "open turn-") + open.getAsLong();
  }

  /**
   * The job notices the session's agent claimed.
   *
   * @return the notices, oldest first
   */
  public List<JobNotice> jobNotices() {
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
  public static final String JOBS_PLUGIN = "tool-jobs";

  /**
   * The newest event.
   *
   * @return it, or empty for an empty log
   */
  public Optional<SessionEvent> last() {
    List<SessionEvent> log = stored.events();
    return log.isEmpty() ? Optional.empty() : Optional.of(log.get(log.size() - 1));
  }
}
