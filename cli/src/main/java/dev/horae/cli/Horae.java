package dev.horae.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.cli.console.WebConsole;
import dev.horae.console.Answered;
import dev.horae.console.LogView;
import dev.horae.invariant.LogFinding;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.SessionStoreException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code horae}: the operator command line over a file store folder ({@code --data-dir}) or a
 * PostgreSQL store ({@code --jdbc-url}). Human-readable tables by default, {@code --json} for
 * scripts; the exit statuses are {@link ExitCode}'s. Every command but {@code approve} and {@code
 * deny} only reads, takes no lock and writes nothing, so it may run next to the application.
 *
 * <pre>
 * horae (--data-dir DIR | --jdbc-url URL [--jdbc-user U] [--jdbc-password-env VAR] [--table-prefix P]) [--json] COMMAND
 *   sessions                              every session: events, zone, state, pending reminders, awaiting calls
 *   reminders [--session ID] [--all]      reminders: due time, state, session, prompt (--all: dispatched and deleted too)
 *   runs --awaiting                       calls parked on a committed ticket: run, reason, tool, arguments, deadline
 *   approve RUN --setup CLASS             answer a parked call: it runs, and the turn goes on
 *   deny RUN --reason TEXT --setup CLASS  answer it with a denial: the tool never runs
 *   jobs                                  the job settlements the logs hold (job notices)
 *   check                                 the invariant check of every session
 *   tail SESSION [-n N] [--follow]        the log, one event a line; --follow prints new events as they land
 *   console [--port N] [--bind ADDR (--token T | --token-env VAR)] [--setup CLASS]
 *                                         the web console (dev.horae.cli.console), until interrupted
 * </pre>
 */
public final class Horae {

  private static final String USAGE = """
      usage: horae (--data-dir DIR | --jdbc-url URL [--jdbc-user U] [--jdbc-password-env VAR] [--table-prefix P]) [--json] COMMAND
      commands:
        sessions                              every session: events, zone, state, pending reminders, awaiting calls
        reminders [--session ID] [--all]      reminders (--all: dispatched and deleted ones too)
        runs --awaiting                       calls parked on a committed ticket
        approve RUN --setup CLASS             run a parked call and let its turn go on
        deny RUN --reason TEXT --setup CLASS  deny a parked call: the tool never runs
        jobs                                  job settlements the logs hold
        check                                 the invariant check of every session
        tail SESSION [-n N] [--follow]        the log, one event a line
        console [--port N] [--bind ADDR (--token T | --token-env VAR)] [--setup CLASS]
                                              the web console, on 127.0.0.1:8620 unless told otherwise
      exit status: 0 ok, 1 violations, 2 usage, 3 not found, 4 held by another process, 5 rejected,
        6 approve/deny need --setup, 7 store unreadable, 8 durability uncertain (docs/operations.md)""";

  /** Options that take a value. */
  private static final Set<String> VALUED = Set.of("--data-dir", "--jdbc-url", "--jdbc-user", "--jdbc-password-env",
      "--table-prefix", "--session", "--setup", "--reason", "--timeout-seconds", "-n", "--lines", "--interval-ms",
      "--port", "--bind", "--token", "--token-env");
  /** Options that are flags. */
  private static final Set<String> FLAGS = Set.of("--json", "--all", "--awaiting", "--follow", "-f", "--help", "-h");

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> options = new HashMap<>();
  private final Set<String> flags = new HashSet<>();
  private final List<String> positional = new ArrayList<>();
  private final InstantSource clock;

  private Horae(PrintStream out, PrintStream err, InstantSource clock) {
    this.out = out;
    this.err = err;
    this.clock = clock;
  }

  /**
   * Runs a command and exits with its status.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    // the one reader of the system clock (docs/architecture.md, "Time comes from one injected source")
    System.exit(run(Arrays.asList(args), out, err, dev.horae.spi.time.SystemTime.wallClock()));
  }

  /**
   * Runs a command.
   *
   * @param args the command line, without the program name
   * @param out receives the command's output
   * @param err receives errors and notes
   * @param clock the clock the runtime of {@code approve}/{@code deny} runs on
   * @return the exit status ({@link ExitCode})
   */
  public static int run(List<String> args, PrintStream out, PrintStream err, InstantSource clock) {
    Horae h = new Horae(out, err, clock);
    try {
      h.parse(args);
      if (h.flags.contains("--help") || h.flags.contains("-h")) {
        out.println(USAGE);
        return ExitCode.OK;
      }
      return h.execute();
    } catch (CliException e) {
      err.println("horae: " + e.getMessage());
      if (e.exitCode() == ExitCode.USAGE) {
        err.println(USAGE);
      }
      return e.exitCode();
    } catch (SessionStoreException e) {
      err.println("horae: " + e.getMessage());
      return ExitCode.UNREADABLE;
    }
  }

  private void parse(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String name = a;
      String inline = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        inline = a.substring(eq + 1);
      }
      if (VALUED.contains(name)) {
        String value = inline;
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new CliException(ExitCode.USAGE, name + " needs a value");
          }
          value = args.get(++i);
        }
        options.put(name.equals("-n") ? "--lines" : name, value);
      } else if (FLAGS.contains(a)) {
        flags.add(a.equals("-f") ? "--follow" : a);
      } else if (a.startsWith("-") && a.length() > 1) {
        throw new CliException(ExitCode.USAGE, "unknown option " + a);
      } else {
        positional.add(a);
      }
    }
  }

  private int execute() {
    if (positional.isEmpty()) {
      throw new CliException(ExitCode.USAGE, "no command given");
    }
    String command = positional.get(0);
    List<String> operands = positional.subList(1, positional.size());
    try (StoreAccess store = open()) {
      return switch (command) {
        case "sessions" -> none(operands, command) + sessions(store);
        case "reminders" -> none(operands, command) + reminders(store);
        case "runs" -> none(operands, command) + runs(store);
        case "approve" -> answer(store, one(operands, "approve RUN"), true);
        case "deny" -> answer(store, one(operands, "deny RUN"), false);
        case "jobs" -> none(operands, command) + jobs(store);
        case "check" -> none(operands, command) + check(store);
        case "tail" -> tail(store, one(operands, "tail SESSION"));
        case "console" -> none(operands, command) + console(store);
        default -> throw new CliException(ExitCode.USAGE, "unknown command " + command);
      };
    }
  }

  private static int none(List<String> operands, String command) {
    if (!operands.isEmpty()) {
      throw new CliException(ExitCode.USAGE, command + " takes no operand, got " + operands.get(0));
    }
    return 0;
  }

  private static String one(List<String> operands, String form) {
    if (operands.size() != 1) {
      throw new CliException(ExitCode.USAGE, "usage: horae " + form);
    }
    return operands.get(0);
  }

  private StoreAccess open() {
    String dir = options.get("--data-dir");
    String url = options.get("--jdbc-url");
    if ((dir == null) == (url == null)) {
      throw new CliException(ExitCode.USAGE, "give exactly one of --data-dir and --jdbc-url");
    }
    if (dir != null) {
      return StoreAccess.files(Path.of(dir));
    }
    Optional<String> password = Optional.ofNullable(options.get("--jdbc-password-env")).map(var -> {
      String value = System.getenv(var);
      if (value == null) {
        throw new CliException(ExitCode.USAGE, "the environment variable " + var + " (--jdbc-password-env) is not set");
      }
      return value;
    });
    return StoreAccess.jdbc(url, Optional.ofNullable(options.get("--jdbc-user")), password,
        options.getOrDefault("--table-prefix", "horae_"));
  }

  private boolean json() {
    return flags.contains("--json");
  }

  private static String time(long epochMs) {
    return LogView.time(epochMs);
  }

  /** Reads every session; an unreadable one is reported on standard error and marks the run. */
  private List<LogView> all(StoreAccess store, boolean[] unreadable) {
    List<LogView> views = new ArrayList<>();
    for (String id : store.ids()) {
      try {
        store.read(id).ifPresent(s -> views.add(new LogView(s)));
      } catch (SessionStoreException | IllegalArgumentException e) {
        err.println("horae: " + id + ": unreadable: " + e.getMessage());
        unreadable[0] = true;
      }
    }
    return views;
  }

  // ---- sessions --------------------------------------------------------------------------------

  private int sessions(StoreAccess store) {
    boolean[] unreadable = {false};
    ArrayNode array = Json.mapper().createArrayNode();
    Table table = new Table("SESSION", "EVENTS", "CREATED", "ZONE", "LAST EVENT", "STATE", "REMINDERS", "AWAITING");
    for (LogView v : all(store, unreadable)) {
      List<AwaitingCall> awaiting = v.awaiting();
      long pending = v.reminders().stream().filter(r -> r.state().equals(LogView.SCHEDULED)).count();
      String zone = v.stored().header().timeZone().orElse("-");
      Optional<SessionEvent> last = v.last();
      String state = v.turnState(awaiting);
      array.add(v.summary(awaiting));
      table.row(v.id(), Integer.toString(v.events().size()), time(v.stored().header().createdAt()), zone,
          last.map(e -> time(e.time())).orElse("-"), state, Long.toString(pending), Integer.toString(awaiting.size()));
    }
    print(array, table);
    return unreadable[0] ? ExitCode.UNREADABLE : ExitCode.OK;
  }

  private void print(JsonNode json, Table table) {
    if (json()) {
      out.println(EcmaJson.write(json));
    } else {
      table.print(out);
    }
  }

  // ---- reminders -------------------------------------------------------------------------------

  private int reminders(StoreAccess store) {
    boolean[] unreadable = {false};
    List<LogView> views;
    String only = options.get("--session");
    if (only != null) {
      views = List.of(new LogView(store.require(only)));
    } else {
      views = all(store, unreadable);
    }
    boolean everything = flags.contains("--all");
    List<LogView.Reminder> list = new ArrayList<>();
    for (LogView v : views) {
      for (LogView.Reminder r : v.reminders()) {
        if (everything || r.state().equals(LogView.SCHEDULED)) {
          list.add(r);
        }
      }
    }
    list.sort(Comparator.comparing(LogView.Reminder::due).thenComparing(LogView.Reminder::session).thenComparing(LogView.Reminder::id));
    ArrayNode array = Json.mapper().createArrayNode();
    Table table = new Table("DUE", "STATE", "SESSION", "ID", "CHANGED", "PROMPT");
    for (LogView.Reminder r : list) {
      array.add(r.json());
      table.row(r.due(), r.state(), r.session(), r.id(), r.changedAt().isPresent() ? time(r.changedAt().getAsLong()) : "-", r.prompt());
    }
    print(array, table);
    return unreadable[0] ? ExitCode.UNREADABLE : ExitCode.OK;
  }

  // ---- runs ------------------------------------------------------------------------------------

  private int runs(StoreAccess store) {
    if (!flags.contains("--awaiting")) {
      throw new CliException(ExitCode.USAGE, "runs needs --awaiting (the calls parked on a committed ticket)");
    }
    boolean[] unreadable = {false};
    ArrayNode array = Json.mapper().createArrayNode();
    Table table = new Table("RUN", "SESSION", "REASON", "TOOL", "ARGUMENTS", "DEADLINE");
    for (LogView v : all(store, unreadable)) {
      for (AwaitingCall a : v.awaiting()) {
        String deadline = a.ticket().deadlineMs().isPresent() ? time(a.ticket().deadlineMs().getAsLong()) : "-";
        array.add(LogView.json(a));
        table.row(a.runId(), a.sessionId(), a.reason().wireName(), a.toolId(), EcmaJson.write(a.arguments()), deadline);
      }
    }
    print(array, table);
    return unreadable[0] ? ExitCode.UNREADABLE : ExitCode.OK;
  }

  // ---- approve / deny --------------------------------------------------------------------------

  private int answer(StoreAccess store, String runId, boolean approve) {
    String reason = options.get("--reason");
    if (!approve && (reason == null || reason.isBlank())) {
      throw new CliException(ExitCode.USAGE, "deny needs --reason TEXT (the model is told why)");
    }
    String setupName = options.get("--setup");
    Answered given = Answer.give(store, runId, approve, reason == null ? "" : reason,
        setupName == null ? null : () -> Answer.load(setupName), timeoutSeconds(), clock, warnings());
    out.println(json() ? EcmaJson.write(given.json()) : given.text());
    if (!given.durable()) {
      err.println("horae: " + given.uncertainty());
      return ExitCode.UNCERTAIN;
    }
    return ExitCode.OK;
  }

  private long timeoutSeconds() {
    return Long.parseLong(options.getOrDefault("--timeout-seconds", "120"));
  }

  private WarningSink warnings() {
    return (message, cause) -> err.println("horae: warning: " + message + cause.map(c -> ": " + c).orElse(""));
  }

  // ---- jobs ------------------------------------------------------------------------------------

  private int jobs(StoreAccess store) {
    boolean[] unreadable = {false};
    ArrayNode array = Json.mapper().createArrayNode();
    Table table = new Table("AT", "SESSION", "JOB");
    for (LogView v : all(store, unreadable)) {
      for (LogView.JobNotice n : v.jobNotices()) {
        array.addObject().put("at", time(n.at())).put("session", n.session()).put("summary", n.summary());
        table.row(time(n.at()), n.session(), n.summary());
      }
    }
    print(array, table);
    return unreadable[0] ? ExitCode.UNREADABLE : ExitCode.OK;
  }

  // ---- check -----------------------------------------------------------------------------------

  private int check(StoreAccess store) {
    boolean[] unreadable = {false};
    boolean violations = false;
    ArrayNode array = Json.mapper().createArrayNode();
    for (LogView v : all(store, unreadable)) {
      StoredSession s = v.stored();
      List<LogFinding> found = SessionLogCheck.check(s.header(), s.events());
      ObjectNode o = array.addObject().put("session", v.id()).put("events", s.events().size());
      ArrayNode findings = o.putArray("findings");
      found.forEach(f -> findings.add(f.reportLine()));
      if (!json()) {
        if (found.isEmpty()) {
          out.println(v.id() + ": ok (" + s.events().size() + " events)");
        }
        found.forEach(f -> out.println(v.id() + ": " + f.reportLine()));
      }
      violations |= !found.isEmpty();
    }
    if (json()) {
      out.println(EcmaJson.write(array));
    }
    return unreadable[0] ? ExitCode.UNREADABLE : violations ? ExitCode.VIOLATIONS : ExitCode.OK;
  }

  // ---- console -------------------------------------------------------------------------------

  private int console(StoreAccess store) {
    int port;
    try {
      port = Integer.parseInt(options.getOrDefault("--port", Integer.toString(WebConsole.DEFAULT_PORT)));
    } catch (NumberFormatException e) {
      throw new CliException(ExitCode.USAGE, "--port needs a number, got " + options.get("--port"));
    }
    InetAddress bind;
    try {
      bind = InetAddress.getByName(options.getOrDefault("--bind", "127.0.0.1"));
    } catch (UnknownHostException e) {
      throw new CliException(ExitCode.USAGE, "--bind " + options.get("--bind") + ": " + e.getMessage());
    }
    String setupName = options.get("--setup");
    // loaded now, so a setup that cannot load is a usage error at start, not at the first click
    OperatorSetup setup = setupName == null ? null : Answer.load(setupName);
    StoreBackend backend = new StoreBackend(store, clock, setup == null ? null : () -> setup, timeoutSeconds(), warnings());
    Optional<String> token = Optional.ofNullable(options.get("--token"));
    String tokenVar = options.get("--token-env");
    if (tokenVar != null) {
      if (token.isPresent()) {
        throw new CliException(ExitCode.USAGE, "give one of --token and --token-env");
      }
      token = Optional.ofNullable(System.getenv(tokenVar));
      if (token.isEmpty()) {
        throw new CliException(ExitCode.USAGE, "the environment variable " + tokenVar + " (--token-env) is not set");
      }
    }
    WebConsole console;
    try {
      console = WebConsole.start(backend, bind, port, token);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new CliException(ExitCode.USAGE, String.valueOf(e.getMessage()), e);
    }
    try (console) {
      out.println("horae console: serving " + store.where() + " on " + console.uri()
          + (token.isPresent() ? " (open " + console.uri() + "?token=T once)" : "")
          + (setup == null ? "; read-only: Approve/Deny need --setup CLASS" : "") + "; interrupt to stop");
      out.flush();
      // serves until this thread is interrupted (Ctrl-C ends the JVM)
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCode.OK;
  }

  // ---- tail ------------------------------------------------------------------------------------

  private int tail(StoreAccess store, String sessionId) {
    int lines = Integer.parseInt(options.getOrDefault("--lines", "20"));
    long interval = Long.parseLong(options.getOrDefault("--interval-ms", "1000"));
    List<SessionEvent> log = store.require(sessionId).events();
    int from = lines <= 0 ? 0 : Math.max(0, log.size() - lines);
    for (SessionEvent e : log.subList(from, log.size())) {
      printEvent(e);
    }
    if (!flags.contains("--follow")) {
      return ExitCode.OK;
    }
    long next = log.size();
    // a poll of the stored log; the writer's process is another one, so there is nothing to wait on
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      List<SessionEvent> now = store.require(sessionId).events();
      for (SessionEvent e : now.subList((int) Math.min(next, now.size()), now.size())) {
        printEvent(e);
      }
      next = Math.max(next, now.size());
    }
    return ExitCode.OK;
  }

  private void printEvent(SessionEvent e) {
    if (json()) {
      ObjectNode o = Json.mapper().createObjectNode().put("seq", e.seq()).put("time", time(e.time())).put("type", e.type());
      o.set("data", e.data());
      out.println(EcmaJson.write(o));
    } else {
      out.println(e.seq() + " " + time(e.time()) + " " + e.type() + " " + EcmaJson.write(e.data()));
    }
    out.flush();
  }
}
