package dev.horae.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.ScheduleChange;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import dev.horae.store.SessionStoreException;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The console's data over session logs: each view folds the stored (or live) log with {@link
 * LogView}, the rules the command line's read-only commands apply, and an answer finds the parked
 * call in the log, then hands it to an {@link Answerer}. Answers are given one at a time, as two
 * {@code horae approve} runs would be.
 *
 * <p>{@code horae console} reads a store folder or a JDBC store without locks and answers in a
 * runtime of its own; {@link #over(HoraeRuntime, long)} reads a running application's runtime and
 * answers in it (the console the Spring Boot starter mounts).
 */
public final class LogBackend implements ConsoleBackend {

  /** Where the sessions are read from. */
  public interface Source {

    /**
     * The ids of every session.
     *
     * @return the ids, sorted
     */
    List<String> ids();

    /**
     * One session as it is now.
     *
     * @param id the session id
     * @return its header and log, or empty when there is no such session
     */
    Optional<StoredSession> read(String id);

    /**
     * Where the sessions live, for messages.
     *
     * @return a folder, or a description of the store
     */
    String where();
  }

  /** Gives an answer to a parked call, typically through {@link Answered#give}. */
  @FunctionalInterface
  public interface Answerer {

    /**
     * Answers the call.
     *
     * @param call the parked call, as the log shows it
     * @param approve true to approve, false to deny
     * @param reason the denial's reason
     * @return the answer
     * @throws ConsoleFailure when it is refused or fails
     */
    Answered answer(AwaitingCall call, boolean approve, String reason);
  }

  /** A timeline shows at most the newest this many entries; {@code horae tail} shows the rest. */
  public static final int TIMELINE_LIMIT = 500;
  /** Text longer than this is cut in a timeline entry's detail. */
  private static final int DETAIL_LIMIT = 400;
  /** The plugin sources of the messages the timeline names (time-context, schedule, jobs specs). */
  private static final String READINGS_PLUGIN = "time-context";
  private static final String SCHEDULE_PLUGIN = "tool-schedule";

  private final Source source;
  private final InstantSource clock;
  private final boolean canAnswer;
  private final Answerer answerer;
  private final Object answering = new Object();

  /**
   * A backend.
   *
   * @param source where the sessions are read
   * @param clock the clock the reminders' due times are measured from
   * @param canAnswer whether {@code answerer} can answer at all (the page says so when not)
   * @param answerer gives the answers
   */
  public LogBackend(Source source, InstantSource clock, boolean canAnswer, Answerer answerer) {
    this.source = source;
    this.clock = clock;
    this.canAnswer = canAnswer;
    this.answerer = answerer;
  }

  /**
   * A backend over a running runtime: the sessions live in it are read from memory, the others
   * from its store (a file store's without opening them, {@link FileSessionStore#peek}), and
   * answers run in it ({@link Answered#give}), with its tools, gates and model.
   *
   * @param runtime the application's runtime
   * @param timeoutSeconds how long an answer's continued turn and flush may take
   * @return the backend
   */
  public static LogBackend over(HoraeRuntime runtime, long timeoutSeconds) {
    Source source = new Source() {
      @Override
      public List<String> ids() {
        TreeSet<String> ids = new TreeSet<>(runtime.store().ids());
        runtime.sessions().list().forEach(s -> ids.add(s.id()));
        return List.copyOf(ids);
      }

      @Override
      public Optional<StoredSession> read(String id) {
        Optional<Session> live = runtime.sessions().get(id);
        if (live.isPresent()) {
          return Optional.of(new StoredSession(live.get().header(), live.get().events()));
        }
        // a file store's session that is not open is read as the command line reads it: no lock,
        // no repair, and its files stay closed (the due-sessions worker may have just closed it)
        if (runtime.store() instanceof FileSessionStore files) {
          return FileSessionStore.peek(files.root(), id);
        }
        return runtime.store().load(id);
      }

      @Override
      public String where() {
        return "this application's store";
      }
    };
    return new LogBackend(source, runtime.wallClock(), true,
        (call, approve, reason) -> Answered.give(runtime, call, approve, reason, timeoutSeconds));
  }

  /**
   * The parked call of {@code runId} in the stored log, as every answer path looks it up.
   *
   * @param source where the sessions are read
   * @param runId the run, {@code <session>/turn-<n>}
   * @return the call
   * @throws ConsoleFailure {@code NOT_FOUND} when the run is not awaiting
   */
  public static AwaitingCall find(Source source, String runId) {
    int cut = runId.lastIndexOf("/turn-");
    if (cut <= 0) {
      throw new ConsoleFailure(ConsoleFailure.Kind.NOT_FOUND, "run " + runId
          + " is not awaiting (a run id is <session>/turn-<n>)");
    }
    String sessionId = runId.substring(0, cut);
    LogView view = new LogView(source.read(sessionId).orElseThrow(() -> new ConsoleFailure(
        ConsoleFailure.Kind.NOT_FOUND, "run " + runId + " is not awaiting: no session " + sessionId)));
    return view.awaiting().stream().filter(a -> a.runId().equals(runId)).findFirst()
        .orElseThrow(() -> new ConsoleFailure(ConsoleFailure.Kind.NOT_FOUND, "run " + runId + " is not awaiting"));
  }

  @Override
  public JsonNode sessions() {
    ObjectNode o = Json.mapper().createObjectNode();
    ArrayNode sessions = o.putArray("sessions");
    eachSession(o, v -> sessions.add(v.summary(v.awaiting())));
    return o;
  }

  @Override
  public JsonNode timeline(String session) {
    LogView v = guarded(() -> new LogView(source.read(session).orElseThrow(() -> new ConsoleFailure(
        ConsoleFailure.Kind.NOT_FOUND, "no session " + session + " in " + source.where()))));
    List<AwaitingCall> awaiting = v.awaiting();
    ObjectNode o = Json.mapper().createObjectNode();
    o.set("summary", v.summary(awaiting));
    ArrayNode parked = o.putArray("awaiting");
    awaiting.forEach(a -> parked.add(LogView.json(a)));
    ArrayNode entries = Json.mapper().createArrayNode();
    for (SessionEvent e : v.events()) {
      entry(e).ifPresent(entries::add);
    }
    int from = Math.max(0, entries.size() - TIMELINE_LIMIT);
    o.put("omitted", from);
    ArrayNode shown = o.putArray("entries");
    for (int i = from; i < entries.size(); i++) {
      shown.add(entries.get(i));
    }
    return o;
  }

  /** The timeline entry of one event; steps, request headers and chunks have none. */
  private static Optional<ObjectNode> entry(SessionEvent e) {
    JsonNode d = e.data();
    String kind;
    String title;
    String detail = "";
    switch (e.type()) {
      case EventTypes.TURN_START -> {
        kind = "turn";
        title = "turn " + d.path("turn").asLong() + " started";
      }
      case EventTypes.TURN_END -> {
        kind = "turn";
        title = "turn " + d.path("turn").asLong() + " ended (" + d.path("reason").asText() + ")";
      }
      case EventTypes.USER_MESSAGE -> {
        JsonNode source = d.path("source");
        String plugin = source.path("plugin").asText("");
        detail = text(d.path("content"));
        if (plugin.equals(READINGS_PLUGIN)) {
          kind = "reading";
          title = "time reading";
        } else if (plugin.equals(SCHEDULE_PLUGIN)) {
          kind = "dispatch";
          title = "reminder delivered to the agent";
        } else if (plugin.equals(LogView.JOBS_PLUGIN)) {
          kind = "job";
          title = "job notice: " + source.path("summary").asText("");
        } else if (!plugin.isEmpty()) {
          kind = "message";
          title = "message from " + plugin;
        } else {
          kind = "prompt";
          title = "prompt";
        }
      }
      case EventTypes.ASSISTANT_MESSAGE -> {
        detail = text(d.path("message").path("content"));
        if (detail.isEmpty()) {
          return Optional.empty();
        }
        kind = "reply";
        title = "assistant";
      }
      case EventTypes.TOOL_CALL -> {
        kind = "tool";
        title = "call " + d.path("tool").asText() + " (" + d.path("callId").asText() + ")";
        detail = EcmaJson.write(d.path("args"));
      }
      case EventTypes.TOOL_RESULT -> {
        kind = "tool";
        title = "result of " + d.path("tool").asText() + " (" + d.path("callId").asText() + ")"
            + (d.path("isError").asBoolean() ? ": error" : "");
        detail = text(d.path("content"));
      }
      case EventTypes.SCHEDULE_CHANGE -> {
        kind = "reminder";
        try {
          ScheduleChange change = ChangeCodec.decode(d);
          if (change instanceof ScheduleChange.Create c) {
            title = "reminder " + c.id() + " created, due " + c.record().scheduledAt();
            detail = c.record().prompt();
          } else if (change instanceof ScheduleChange.Dispatch) {
            title = "reminder " + change.id() + " dispatched";
          } else {
            title = "reminder " + change.id() + " " + d.path("operation").asText("changed");
          }
        } catch (CorruptScheduleLogException bad) {
          title = "unreadable schedule change (horae check reports it)";
        }
      }
      case "gate/commit" -> {
        kind = "gate";
        JsonNode commit = d.path("commit");
        JsonNode run = commit.path("run");
        StringBuilder facts = new StringBuilder();
        for (JsonNode fact : commit.path("events")) {
          if (fact.path("type").asText().equals("permissionDecided")) {
            facts.append(facts.length() == 0 ? "" : ", ").append(fact.path("toolId").asText()).append(' ')
                .append(fact.path("callId").asText()).append(": ").append(fact.path("decision").asText());
          }
        }
        String runId = run.path("ticket").path("runId").asText(run.path("runId").asText(""));
        title = "gate: run " + (runId.isEmpty() ? "" : runId + " ") + run.path("type").asText("changed");
        detail = facts.toString();
      }
      default -> {
        return Optional.empty();
      }
    }
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("seq", e.seq()).put("time", LogView.time(e.time())).put("kind", kind).put("title", title);
    o.put("detail", detail.length() > DETAIL_LIMIT ? detail.substring(0, DETAIL_LIMIT - 1) + "…" : detail);
    return Optional.of(o);
  }

  private static String text(JsonNode content) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode block : content) {
      if (block.path("type").asText().equals("text")) {
        sb.append(sb.length() == 0 ? "" : "\n").append(block.path("text").asText());
      }
    }
    return sb.toString();
  }

  @Override
  public JsonNode reminders() {
    Instant now = clock.instant();
    ObjectNode o = Json.mapper().createObjectNode().put("now", now.toString());
    ArrayNode scheduled = o.putArray("scheduled");
    ArrayNode dispatched = o.putArray("dispatched");
    eachSession(o, v -> {
      for (LogView.Reminder r : v.reminders()) {
        if (r.state().equals(LogView.SCHEDULED)) {
          scheduled.add(r.json());
        } else if (r.state().equals(LogView.DISPATCHED) && r.changedAt().isPresent()) {
          ObjectNode d = r.json();
          lateness(r).ifPresent(ms -> d.put("latenessMs", ms));
          dispatched.add(d);
        }
      }
    });
    return o;
  }

  /** Dispatch time minus due time, as {@code horae.reminders.lateness} measures it (docs/operations.md). */
  private static java.util.OptionalLong lateness(LogView.Reminder r) {
    try {
      long due = Instant.parse(r.due()).toEpochMilli();
      return java.util.OptionalLong.of(Math.max(0, r.changedAt().getAsLong() - due));
    } catch (DateTimeParseException e) {
      return java.util.OptionalLong.empty();
    }
  }

  @Override
  public JsonNode awaiting() {
    ObjectNode o = Json.mapper().createObjectNode().put("canAnswer", canAnswer);
    ArrayNode list = o.putArray("awaiting");
    eachSession(o, v -> v.awaiting().forEach(a -> list.add(LogView.json(a))));
    return o;
  }

  /**
   * Reads every session for {@code each}; one that cannot be read is listed in {@code into}'s
   * {@code unreadable} array and the others are still shown, as the command line does.
   */
  private void eachSession(ObjectNode into, Consumer<LogView> each) {
    ArrayNode unreadable = into.putArray("unreadable");
    for (String id : guarded(source::ids)) {
      try {
        source.read(id).ifPresent(s -> each.accept(new LogView(s)));
      } catch (SessionStoreException | IllegalArgumentException e) {
        unreadable.addObject().put("session", id).put("message", String.valueOf(e.getMessage()));
      }
    }
  }

  @Override
  public JsonNode answer(String runId, boolean approve, String reason) {
    synchronized (answering) {
      Answered given = guarded(() -> answerer.answer(find(source, runId), approve, reason));
      ObjectNode o = given.json();
      o.put("message", given.text());
      if (!given.durable()) {
        throw new ConsoleFailure(ConsoleFailure.Kind.UNCERTAIN, given.uncertainty(), o);
      }
      return o;
    }
  }

  /** Runs a read or an answer, turning a store's failure into the console's. */
  private static <T> T guarded(Supplier<T> action) {
    try {
      return action.get();
    } catch (SessionStoreException e) {
      throw new ConsoleFailure(ConsoleFailure.Kind.UNREADABLE, String.valueOf(e.getMessage()), e);
    }
  }
}
