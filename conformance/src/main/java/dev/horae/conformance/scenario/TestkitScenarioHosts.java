package dev.horae.conformance.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.testkit.TestHost;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ModelResponse;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.ArrayDeque;
import java.util.Deque;
import dev.horae.jobs.registry.JobServiceConfig;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.spi.jobs.JobService;

/** The scenario binding of the in-memory reference host ({@code testkit}'s {@link TestHost}). */
public final class TestkitScenarioHosts implements ScenarioHosts {

  /** Creates the factory. */
  public TestkitScenarioHosts() {}

  @Override
  public ScenarioHost create(HostSetup setup) {
    TestHost.Builder b = TestHost.builder()
        .start(setup.start())
        .processZone(setup.processZone())
        .persistence(setup.persistence())
        .dispatchScheduledActions(setup.dispatch())
        .gatePlugins(setup.gatePlugins());
    setup.awaitDeadline().ifPresent(b::awaitDeadline);
    return new Bound(b.build());
  }

  /**
   * The serial settlement executor of the host's job registry: tasks wait until the scenario
   * settles, so settlement never races the steps.
   */
  private static final class SettlementQueue implements Executor {
    private final Deque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
      tasks.add(task);
    }

    /** Runs queued tasks, including those they queue; returns how many ran. */
    int drain() {
      int ran = 0;
      while (true) {
        Runnable next;
        synchronized (this) {
          next = tasks.poll();
        }
        if (next == null) {
          return ran;
        }
        next.run();
        ran++;
      }
    }
  }

  /** One reference host. */
  private static final class Bound implements ScenarioHost {
    private final TestHost host;
    private final SettlementQueue settlements = new SettlementQueue();
    private final Map<String, HeldFlush> held = new HashMap<>();
    private int callIds;

    // the reference host's job registry is the library's LocalJobService (testkit cannot depend
    // on jobs-controller), settling on a queue the scenario drains
    Bound(TestHost host) {
      this.host = host;
      host.provide(JobService.class, LocalJobService.builder(host.wallClock(), host.timers())
          .config(JobServiceConfig.defaults())
          .agents(host.agents())
          .warnings(host.warnings())
          .settlementExecutor(settlements)
          .build());
    }

    @Override
    public Host host() {
      return host;
    }

    @Override
    public Agent createAgent(CreateOptions options) {
      return host.createAgent(options);
    }

    @Override
    public Agent agentFor(Session session) {
      return host.agentFor(session);
    }

    @Override
    public Agent createChildAgent(Agent parent) {
      return host.createChildAgent(test(parent));
    }

    @Override
    public void script(Agent agent, List<JsonNode> replies) {
      ScriptedModel model = new ScriptedModel();
      for (JsonNode r : replies) {
        if (r.path("fail").isTextual()) {
          model.thenFail(r.get("fail").textValue());
        } else {
          model.then(reply(r));
        }
      }
      test(agent).useModel(model);
    }

    private ModelResponse reply(JsonNode r) {
      if (r.path("text").isTextual()) {
        return ModelResponse.text(r.get("text").textValue());
      }
      List<ToolCall> calls = new ArrayList<>();
      if (r.path("call").isObject()) {
        calls.add(call(r.get("call")));
      } else if (r.path("calls").isArray()) {
        r.get("calls").forEach(c -> calls.add(call(c)));
      } else {
        throw new IllegalArgumentException("a model reply is {text}, {call}, {calls} or {fail}: " + r);
      }
      return ModelResponse.calls(calls.toArray(new ToolCall[0]));
    }

    private ToolCall call(JsonNode c) {
      if (!c.path("tool").isTextual() || !c.path("args").isObject()) {
        throw new IllegalArgumentException("a scripted call is {tool, args, callId?}: " + c);
      }
      String id = c.path("callId").isTextual() ? c.get("callId").textValue() : nextCallId();
      return new ToolCall(id, c.get("tool").textValue(), c.get("args"));
    }

    private String nextCallId() {
      callIds++;
      return "model-call-" + callIds;
    }

    @Override
    public void prompt(Agent agent, String text, Optional<String> rpcId, Optional<String> clientTimeZone) {
      if (rpcId.isPresent()) {
        host.prompt(test(agent), text, rpcId.get(), clientTimeZone);
      } else {
        host.prompt(test(agent), text);
      }
    }

    @Override
    public void settle() {
      do {
        host.settle();
      } while (settlements.drain() > 0);
    }

    @Override
    public void advance(Duration amount) {
      host.time().advance(amount);
      settle();
    }

    @Override
    public void setWall(Instant wall) {
      host.time().setWall(wall);
    }

    @Override
    public void setProcessZone(ZoneId zone) {
      host.zone().set(zone);
    }

    @Override
    public void setBusy(Agent agent) {
      test(agent).setBusy();
    }

    @Override
    public void setIdle(Agent agent) {
      test(agent).setIdle();
    }

    @Override
    public List<UserMessage> followUps(Agent agent) {
      return test(agent).followups();
    }

    @Override
    public List<UserMessage> injections(Agent agent) {
      return test(agent).injections();
    }

    @Override
    public void failFlushes(int after, int count, String message) {
      for (int i = 0; i < after; i++) {
        host.store().script().thenComplete();
      }
      for (int i = 0; i < count; i++) {
        host.store().script().thenFail(new IllegalStateException(message));
      }
    }

    @Override
    public void holdNextFlush(String name) {
      held.put(name, host.store().script().thenHold());
    }

    @Override
    public void releaseFlush(String name) {
      heldFlush(name).release();
    }

    @Override
    public void failHeldFlush(String name, String message) {
      heldFlush(name).fail(new IllegalStateException(message));
    }

    private HeldFlush heldFlush(String name) {
      HeldFlush h = held.get(name);
      if (h == null) {
        throw new IllegalArgumentException("no held flush named " + name);
      }
      return h;
    }

    @Override
    public ScenarioHost restart() {
      return new Bound(host.restart());
    }

    @Override
    public CompletionStage<Void> dispose(Agent agent) {
      CompletionStage<Void> stage = host.dispose(test(agent));
      settle();
      return stage;
    }

    @Override
    public List<String> withdrawals(Agent agent) {
      return test(agent).withdrawals();
    }

    @Override
    public List<String> warnings() {
      return host.warnings().messages();
    }

    @Override
    public int pendingTimers() {
      return host.time().pendingTimers();
    }

    private static TestAgent test(Agent agent) {
      if (!(agent instanceof TestAgent t)) {
        throw new IllegalArgumentException("not an agent of this host: " + agent.id());
      }
      return t;
    }
  }
}
