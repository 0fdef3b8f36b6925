package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.CaseResult;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.internal.Expectation;
import dev.horae.conformance.scenario.HostSetup;
import dev.horae.conformance.scenario.PluginCatalog;
import dev.horae.conformance.scenario.ScenarioHost;
import dev.horae.conformance.scenario.ScenarioHosts;
import dev.horae.gate.GateJson;
import dev.horae.spi.AbortController;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobStatus;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.PromptAdmission;
import dev.horae.spi.message.PromptRejectedException;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * One run of one {@code scenario} case: a fresh host, the steps in order, stopping at the first
 * step whose expectation fails or that cannot run.
 */
public final class ScenarioRun {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final String id;
  private final JsonNode scenario;
  private final ScenarioHosts hosts;
  private final PluginCatalog catalog;

  private @Nullable ScenarioHost current;
  private final Map<String, Agent> agents = new LinkedHashMap<>();
  private final Map<String, String> sessionOf = new HashMap<>();
  private final Map<String, CompletableFuture<ToolResult>> calls = new HashMap<>();
  private final Map<String, AbortController> aborts = new HashMap<>();
  private final Map<String, CompletableFuture<Boolean>> flushes = new HashMap<>();
  private final List<Installed> installed = new ArrayList<>();
  private final Map<String, ScriptedJob> jobs = new HashMap<>();
  private final Map<String, CompletableFuture<Void>> disposals = new HashMap<>();
  private Optional<GateRun> gate = Optional.empty();
  private String gateAgent = "";
  private final Map<String, JobId> jobIds = new HashMap<>();
  private final Map<String, Optional<Agent>> jobOwners = new HashMap<>();
  private int anonymous;

  /** A plugin installed by the scenario, kept so a restart can install it again. */
  private static final class Installed {
    final String name;
    final JsonNode config;
    Installation installation;

    Installed(String name, JsonNode config, Installation installation) {
      this.name = name;
      this.config = config;
      this.installation = installation;
    }
  }

  /** A step that cannot run as written. */
  private static final class StepError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StepError(String message) {
      super(message);
    }
  }

  /**
   * Prepares a run; nothing happens before {@link #run()}.
   *
   * @param id the case id
   * @param scenario the case object
   * @param hosts builds the host
   * @param catalog the installable plugins
   */
  public ScenarioRun(String id, JsonNode scenario, ScenarioHosts hosts, PluginCatalog catalog) {
    this.id = id;
    this.scenario = scenario;
    this.hosts = hosts;
    this.catalog = catalog;
  }

  /**
   * Runs the case.
   *
   * @return the verdict: the first failing step, or a pass
   */
  public CaseResult run() {
    JsonNode args = scenario.path("args");
    JsonNode steps = args.path("steps");
    if (!steps.isArray() || steps.isEmpty()) {
      return CaseResult.fail(id, "args.steps", broken("a scenario needs a non-empty args.steps array"));
    }
    try {
      current = hosts.create(setup(args.path("host")));
      for (JsonNode p : args.path("host").path("plugins")) {
        install(p.path("name").asText(), p.path("config"));
      }
    } catch (RuntimeException e) {
      return CaseResult.fail(id, "host setup", broken(describe(e)));
    }
    for (int i = 0; i < steps.size(); i++) {
      JsonNode step = steps.get(i);
      String label = "step " + (i + 1) + " " + label(step) + ": ";
      try {
        Optional<CaseResult> failure = step(label, step);
        if (failure.isPresent()) {
          return failure.get();
        }
      } catch (StepError e) {
        return CaseResult.fail(id, label + "a runnable step", broken(String.valueOf(e.getMessage())));
      } catch (RuntimeException | StackOverflowError e) {
        return CaseResult.fail(id, label + "a completed step", broken(describe(e)));
      }
    }
    return CaseResult.pass(id);
  }

  private static String label(JsonNode step) {
    if (step.path("do").isTextual()) {
      return step.get("do").textValue();
    }
    if (step.path("expect").isTextual()) {
      return "expect " + step.get("expect").textValue();
    }
    return "?";
  }

  private static HostSetup setup(JsonNode h) {
    Instant start = h.path("start").isTextual()
        ? OffsetDateTime.parse(h.get("start").textValue()).toInstant()
        : Instant.parse("2026-01-01T00:00:00Z");
    ZoneId zone = h.path("processZone").isTextual() ? ZoneId.of(h.get("processZone").textValue()) : ZoneId.of("UTC");
    Optional<Duration> deadline = h.path("awaitDeadlineMs").canConvertToExactIntegral()
        ? Optional.of(Duration.ofMillis(h.get("awaitDeadlineMs").asLong())) : Optional.empty();
    List<dev.horae.gate.Plugin> gatePlugins = new ArrayList<>();
    h.path("gatePlugins").forEach(p -> gatePlugins.add(GateJson.decodePlugin(p)));
    return new HostSetup(start, zone, h.path("persistence").asBoolean(true), h.path("dispatch").asBoolean(true), deadline,
        gatePlugins);
  }

  // ---- steps ------------------------------------------------------------------------------------

  private Optional<CaseResult> step(String label, JsonNode step) {
    if (step.path("do").isTextual()) {
      JsonNode inline = step.get("expect");
      Outcome outcome;
      if (inline != null && inline.isObject()) {
        try {
          outcome = action(step.get("do").textValue(), step);
        } catch (StepError e) {
          throw e;
        } catch (RuntimeException e) {
          outcome = Outcome.error(error(e));
        }
        return check(label, StepExpectation.of(inline), outcome);
      }
      action(step.get("do").textValue(), step);
      return Optional.empty();
    }
    if (step.path("expect").isTextual()) {
      StepExpectation expectation;
      try {
        expectation = StepExpectation.of(step);
      } catch (IllegalArgumentException e) {
        throw new StepError(String.valueOf(e.getMessage()));
      }
      return check(label, expectation, observe(step.get("expect").textValue(), step));
    }
    throw new StepError("a step has a string \"do\" or a string \"expect\"");
  }

  private Optional<CaseResult> check(String label, StepExpectation expectation, Outcome outcome) {
    return expectation.holds(outcome)
        ? Optional.empty()
        : Optional.of(CaseResult.fail(id, label + expectation.describe(), expectation.describe(outcome)));
  }

  private Outcome action(String name, JsonNode s) {
    switch (name) {
      case "install" -> {
        install(text(s, "plugin"), s.path("config"));
        return Outcome.text("installed");
      }
      case "uninstall" -> {
        Installed i = installed.stream().filter(p -> p.name.equals(text(s, "plugin"))).findFirst()
            .orElseThrow(() -> new StepError("plugin " + text(s, "plugin") + " is not installed"));
        installed.remove(i);
        return settled(i.installation.close().toCompletableFuture().thenApply(v -> Outcome.text("uninstalled")));
      }
      case "agent" -> {
        CreateOptions options = new CreateOptions(optText(s, "id"), optText(s, "cwd"), optText(s, "timeZone"));
        Agent a = host().createAgent(options);
        bind(text(s, "as"), a);
        return Outcome.value(a.session().header().toJson());
      }
      case "child" -> {
        Agent a = host().createChildAgent(agent(s, "of"));
        bind(text(s, "as"), a);
        return Outcome.text(a.id());
      }
      case "fork" -> {
        Agent parent = agent(s, "agent");
        long boundary = s.has("boundary") ? s.get("boundary").asLong() : parent.session().length();
        Session child = host().host().sessions().fork(parent.session(), boundary, s.path("endSeed").asBoolean(true));
        bind(text(s, "as"), host().agentFor(child));
        return Outcome.value(child.header().toJson());
      }
      case "model" -> {
        List<JsonNode> replies = new ArrayList<>();
        s.path("replies").forEach(replies::add);
        host().script(agent(s, "agent"), replies);
        return Outcome.text("scripted");
      }
      case "prompt" -> {
        try {
          host().prompt(agent(s, "agent"), text(s, "text"), optText(s, "rpcId"), optText(s, "clientTimeZone"));
        } finally {
          if (s.path("settle").asBoolean(true)) {
            host().settle();
          }
        }
        return Outcome.text("prompted");
      }
      case "steer" -> {
        // through the host contract: a steering message lands in the running turn's next step
        Optional<String> rpcId = optText(s, "rpcId");
        MessageSource source = rpcId.isPresent()
            ? MessageSource.rpc(rpcId.get(), optText(s, "clientTimeZone").map(PromptAdmission::admitClientZone))
            : MessageSource.user();
        agent(s, "agent").steer(host().host().messages().text(text(s, "text"), source));
        if (s.path("settle").asBoolean(true)) {
          host().settle();
        }
        return Outcome.text("steered");
      }
      case "settle" -> {
        host().settle();
        return Outcome.text("settled");
      }
      case "advance" -> {
        host().advance(Duration.ofMillis(integer(s, "ms")));
        return Outcome.text("advanced");
      }
      case "setWall" -> {
        host().setWall(OffsetDateTime.parse(text(s, "at")).toInstant());
        return Outcome.text("set");
      }
      case "processZone" -> {
        host().setProcessZone(ZoneId.of(text(s, "zone")));
        return Outcome.text("set");
      }
      case "call" -> {
        return call(s);
      }
      case "abort" -> {
        AbortController a = aborts.get(text(s, "call"));
        if (a == null) {
          throw new StepError("no call named " + text(s, "call"));
        }
        a.abort();
        host().settle();
        return resultOf(text(s, "call"));
      }
      case "busy" -> {
        host().setBusy(agent(s, "agent"));
        return Outcome.text("busy");
      }
      case "idle" -> {
        host().setIdle(agent(s, "agent"));
        host().settle();
        return Outcome.text("idle");
      }
      case "flush" -> {
        String as = s.path("as").isTextual() ? s.get("as").textValue() : next("flush-");
        flushes.put(as, host().host().sessions().flush(agent(s, "agent").session()).toCompletableFuture());
        host().settle();
        return flushOf(as);
      }
      case "failFlush" -> {
        host().failFlushes(s.path("after").asInt(0), s.path("times").asInt(1),
            s.path("message").asText("scripted flush failure"));
        return Outcome.text("scripted");
      }
      case "holdFlush" -> {
        host().holdNextFlush(text(s, "as"));
        return Outcome.text("scripted");
      }
      case "releaseFlush" -> {
        host().releaseFlush(text(s, "hold"));
        host().settle();
        return Outcome.text("released");
      }
      case "failHeldFlush" -> {
        host().failHeldFlush(text(s, "hold"), s.path("message").asText("scripted flush failure"));
        host().settle();
        return Outcome.text("failed");
      }
      case "veto" -> {
        veto(text(s, "type"), s.has("data") ? s.get("data") : F.objectNode(), s.path("times").asInt(1),
            s.path("message").asText("scripted veto"));
        return Outcome.text("armed");
      }
      case "restart" -> {
        restart();
        return Outcome.text("restarted");
      }
      case "append" -> {
        SessionEvent e = agent(s, "agent").session().append(text(s, "type"), s.path("data"), s.path("visible").asBoolean(false) ? AppendOptions.VISIBLE : AppendOptions.LOG_ONLY);
        return Outcome.value(Views.event(e));
      }
      case "job.start" -> {
        return startJob(s);
      }
      case "job.emit" -> {
        job(s).emit(text(s, "text"));
        return Outcome.text("emitted");
      }
      case "job.settle" -> {
        ScriptedJob j = job(s);
        if (s.path("fail").isTextual()) {
          j.fail(s.get("fail").textValue());
        } else {
          JobOutcome outcome = new JobOutcome(JobStatus.fromWire(text(s, "status")), optText(s, "detail"),
              optText(s, "output"));
          j.settle(outcome);
        }
        host().settle();
        return Outcome.text("settled");
      }
      case "run.runtime" -> {
        gateAgent = text(s, "agent");
        gate = Optional.of(new GateRun(s, host(), agent(s, "agent")));
        return Outcome.text("ready");
      }
      case "run.execute" -> {
        return settled(gate().execute(optText(s, "run"), s.path("input").asText("go")));
      }
      case "run.perform" -> {
        return settled(gate().perform(text(s, "run")));
      }
      case "run.resume" -> {
        JsonNode command = s.path("command");
        if (command.isObject()) {
          return settled(gate().resume(command));
        }
        if (!s.path("result").isObject()) {
          throw new StepError("run.resume needs a \"command\", or a \"run\" and a \"result\"");
        }
        return settled(gate().resumeFromTicket(text(s, "run"), s.get("result"),
            s.has("override") ? s.get("override") : F.objectNode(), nowMs(s)));
      }
      case "run.cancel" -> {
        return settled(gate().cancel(text(s, "run")));
      }
      case "run.stop" -> {
        return settled(gate().stop(text(s, "run"), text(s, "reason")));
      }
      case "dispose" -> {
        disposals.put(text(s, "agent"), host().dispose(agent(s, "agent")).toCompletableFuture());
        return disposalOf(text(s, "agent"));
      }
      default -> throw new StepError("unknown step \"" + name + "\"");
    }
  }

  private Outcome call(JsonNode s) {
    Agent a = agent(s, "agent");
    String as = s.path("as").isTextual() ? s.get("as").textValue() : next("call-");
    String callId = s.path("callId").isTextual() ? s.get("callId").textValue() : as;
    JsonNode args = s.has("args") ? s.get("args") : F.objectNode();
    AbortController abort = new AbortController();
    aborts.put(as, abort);
    calls.put(as, host().host().tools().call(new ToolInvocation(a, new ToolCall(callId, text(s, "tool"), args)), abort.signal())
        .toCompletableFuture());
    host().settle();
    return resultOf(as);
  }

  private Outcome startJob(JsonNode s) {
    String as = text(s, "as");
    ScriptedJob producer = new ScriptedJob(s.path("stream").asBoolean(true), s.path("cancelThrows").asBoolean(false));
    JobStart.Builder start = JobStart.builder(s.path("kind").asText("scripted"), s.path("label").asText("scripted job"),
        producer);
    Optional<Agent> owner = s.has("owner") ? Optional.of(agent(s, "owner")) : Optional.empty();
    start.owner(owner);
    if (s.has("outputLimitBytes")) {
      start.outputLimitBytes(s.get("outputLimitBytes").asLong());
    }
    JobId jobId = jobService().start(start.build());
    jobs.put(as, producer);
    jobIds.put(as, jobId);
    jobOwners.put(as, owner);
    host().settle();
    return Outcome.text(jobId.value());
  }

  /** Settles the host, then reads the stage: its outcome, its failure, or still pending. */
  private Outcome settled(CompletableFuture<Outcome> stage) {
    if (!stage.isDone()) {
      host().settle();
    }
    if (!stage.isDone()) {
      return Outcome.value(pending());
    }
    try {
      return stage.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof RuntimeException r ? r : e;
    }
  }

  private GateRun gate() {
    return gate.orElseThrow(() -> new StepError("no run.runtime step came before"));
  }

  // the caller's clock for run decisions: nowMs when given, else the host's wall clock
  private long nowMs(JsonNode s) {
    return s.has("nowMs") ? Long.parseUnsignedLong(s.get("nowMs").asText()) : host().host().wallClock().millis();
  }

  private JobService jobService() {
    return host().host().service(JobService.class)
        .orElseThrow(() -> new StepError("the host offers no JobService"));
  }

  private ScriptedJob job(JsonNode s) {
    ScriptedJob j = jobs.get(text(s, "job"));
    if (j == null) {
      throw new StepError("no job named " + text(s, "job"));
    }
    return j;
  }

  /**
   * Arms a pre-append validator (a host-contract seam, so any host supports it) that vetoes the
   * next {@code times} appends of {@code type} whose data matches {@code data}, then stays inert.
   */
  private void veto(String type, JsonNode data, int times, String message) {
    int[] left = {times};
    host().host().sessions().onPreAppend((header, log, candidate) -> {
      synchronized (left) {
        if (left[0] > 0 && candidate.type().equals(type) && Pattern.matches(data, candidate.data())) {
          left[0]--;
          throw new IllegalStateException(message);
        }
      }
    });
  }

  private void install(String name, JsonNode config) {
    JsonNode c = config.isMissingNode() || config.isNull() ? F.objectNode() : config;
    Plugin plugin = catalog.create(name, c)
        .orElseThrow(() -> new StepError("unknown plugin \"" + name + "\" (known: " + catalog.names() + ")"));
    Installation installation = plugin.install(host().host());
    installed.add(new Installed(name, c, installation));
  }

  private void restart() {
    current = host().restart();
    for (Installed i : installed) {
      Plugin plugin = catalog.create(i.name, i.config).orElseThrow();
      i.installation = plugin.install(host().host());
    }
    Map<String, String> previous = new LinkedHashMap<>(sessionOf);
    agents.clear();
    sessionOf.clear();
    for (Map.Entry<String, String> e : previous.entrySet()) {
      Optional<Session> resumed = host().host().sessions().get(e.getValue());
      if (resumed.isPresent()) {
        bind(e.getKey(), host().agentFor(resumed.get()));
      }
    }
    if (gate.isPresent() && agents.containsKey(gateAgent)) {
      gate.get().rebuild(host(), agents.get(gateAgent));
    }
    host().settle();
  }

  private void bind(String name, Agent agent) {
    agents.put(name, agent);
    sessionOf.put(name, agent.session().id());
  }

  // ---- observations -----------------------------------------------------------------------------

  private Outcome observe(String what, JsonNode s) {
    switch (what) {
      case "result" -> {
        return resultOf(text(s, "call"));
      }
      case "flush" -> {
        return flushOf(text(s, "flush"));
      }
      case "followUps" -> {
        return Outcome.value(Views.messages(host().followUps(agent(s, "agent")), s.path("texts").asBoolean(false)));
      }
      case "injections" -> {
        return Outcome.value(Views.messages(host().injections(agent(s, "agent")), s.path("texts").asBoolean(false)));
      }
      case "log" -> {
        return Outcome.value(log(s));
      }
      case "header" -> {
        return Outcome.value(agent(s, "agent").session().header().toJson());
      }
      case "status" -> {
        return Outcome.text(agent(s, "agent").status().wireName());
      }
      case "exists" -> {
        return Outcome.value(BooleanNode.valueOf(agents.containsKey(text(s, "agent"))));
      }
      case "timers" -> {
        return Outcome.value(IntNode.valueOf(host().pendingTimers()));
      }
      case "job" -> {
        JobId jobId = jobIds.get(text(s, "job"));
        if (jobId == null) {
          throw new StepError("no job named " + text(s, "job"));
        }
        // the access fence admits the owner only, so read as the owner recorded at start
        return Outcome.value(jobService().get(jobId, jobOwners.getOrDefault(text(s, "job"), Optional.empty())).toJson());
      }
      case "cancels" -> {
        ArrayNode a = F.arrayNode();
        job(s).cancels().forEach(a::add);
        return Outcome.value(a);
      }
      case "ticket" -> {
        return gate().ticket(text(s, "run"));
      }
      case "runFacts" -> {
        return gate().facts(text(s, "run"));
      }
      case "toolRuns" -> {
        return gate().executions();
      }
      case "disposal" -> {
        return disposalOf(text(s, "agent"));
      }
      case "withdrawals" -> {
        ArrayNode a = F.arrayNode();
        host().withdrawals(agent(s, "agent")).forEach(a::add);
        return Outcome.value(a);
      }
      case "warnings" -> {
        ArrayNode a = F.arrayNode();
        host().warnings().forEach(a::add);
        return Outcome.value(a);
      }
      default -> throw new StepError("unknown expectation target \"" + what + "\"");
    }
  }

  private ArrayNode log(JsonNode s) {
    List<SessionEvent> events = agent(s, "agent").session().events();
    long from = s.path("from").asLong(0);
    List<String> types = new ArrayList<>();
    if (s.path("type").isTextual()) {
      types.add(s.get("type").textValue());
    } else if (s.path("type").isArray()) {
      s.get("type").forEach(t -> types.add(t.asText()));
    }
    String project = s.path("project").asText("events");
    ArrayNode out = F.arrayNode();
    for (SessionEvent e : events) {
      if (e.seq() < from || (!types.isEmpty() && !types.contains(e.type()))) {
        continue;
      }
      switch (project) {
        case "events" -> out.add(Views.event(e));
        case "types" -> out.add(e.type());
        case "data" -> out.add(e.data());
        case "texts" -> out.add(Views.text(e));
        default -> throw new StepError("project is events, types, data or texts");
      }
    }
    return out;
  }

  private Outcome resultOf(String name) {
    CompletableFuture<ToolResult> f = calls.get(name);
    if (f == null) {
      throw new StepError("no call named " + name);
    }
    if (!f.isDone()) {
      return Outcome.value(pending());
    }
    try {
      return Outcome.value(Views.result(f.join()));
    } catch (CompletionException e) {
      return Outcome.error(error(e.getCause() == null ? e : e.getCause()));
    }
  }

  private Outcome flushOf(String name) {
    CompletableFuture<Boolean> f = flushes.get(name);
    if (f == null) {
      throw new StepError("no flush named " + name);
    }
    if (!f.isDone()) {
      return Outcome.value(pending());
    }
    try {
      return Outcome.value(BooleanNode.valueOf(f.join()));
    } catch (CompletionException e) {
      return Outcome.error(error(e.getCause() == null ? e : e.getCause()));
    }
  }

  private Outcome disposalOf(String name) {
    CompletableFuture<Void> f = disposals.get(name);
    if (f == null) {
      throw new StepError("agent " + name + " is not being disposed");
    }
    if (!f.isDone()) {
      host().settle();
    }
    if (!f.isDone()) {
      return Outcome.value(pending());
    }
    try {
      f.join();
      return Outcome.text("disposed");
    } catch (CompletionException e) {
      return Outcome.error(error(e.getCause() == null ? e : e.getCause()));
    }
  }

  private static ObjectNode pending() {
    ObjectNode o = F.objectNode();
    o.put("pending", true);
    return o;
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private String next(String prefix) {
    anonymous++;
    return prefix + anonymous;
  }

  private ScenarioHost host() {
    ScenarioHost h = current;
    if (h == null) {
      throw new IllegalStateException("the host is not built yet");
    }
    return h;
  }

  private Agent agent(JsonNode s, String key) {
    String name = text(s, key);
    Agent a = agents.get(name);
    if (a == null) {
      throw new StepError("no agent named " + name);
    }
    return a;
  }

  private static String text(JsonNode s, String key) {
    JsonNode v = s.get(key);
    if (v == null || !v.isTextual()) {
      throw new StepError("\"" + key + "\" must be a string");
    }
    return v.textValue();
  }

  private static Optional<String> optText(JsonNode s, String key) {
    JsonNode v = s.get(key);
    return v != null && v.isTextual() ? Optional.of(v.textValue()) : Optional.empty();
  }

  private static long integer(JsonNode s, String key) {
    JsonNode v = s.get(key);
    if (v == null || !v.canConvertToExactIntegral()) {
      throw new StepError("\"" + key + "\" must be an integer");
    }
    return v.asLong();
  }

  /** An exception as an error value: {@code {type, message, code?}}. */
  private static ObjectNode error(Throwable e) {
    ObjectNode o = F.objectNode();
    o.put("type", e.getClass().getSimpleName());
    o.put("message", String.valueOf(e.getMessage()));
    if (e instanceof PromptRejectedException p) {
      o.put("code", p.code());
    } else if (e instanceof JobsException j) {
      o.put("code", j.code());
    } else if (e instanceof InvariantViolation v) {
      o.put("code", v.code());
    }
    return o;
  }

  private static String describe(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static String broken(String reason) {
    return Expectation.describeOutcome(new Outcome.Broken(reason), true);
  }
}
