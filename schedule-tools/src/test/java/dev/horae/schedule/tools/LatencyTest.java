package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.AppendValidator;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventObserver;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionCreatedListener;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.spi.tool.ToolRegistry;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 acceptance: {@code schedule_list} and {@code schedule_create} latency on a session with
 * 100,000 prior events, excluding flush (the host's flush is replaced by an immediate
 * confirmation so only Schedule's own work is timed). Tagged {@code slow}; prints the figures.
 */
@Tag("slow")
class LatencyTest {

  @Test
  void listAndCreateStayUnderAMillisecondOnALongLog() {
    TestHost test = TestHost.builder().start(Fixture.START).build();
    Host host = new InstantFlushHost(test);
    new SchedulePlugin().install(host);
    TestAgent a = test.createAgent();
    Session s = a.session();
    JsonNode filler = Json.parse("{\"turn\":1,\"step\":1}");
    int next = 1;
    while (s.length() < 100_000) {
      if (s.length() % 40 == 0) {
        String id = "old-" + next++;
        s.append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(new ScheduleChange.Create(
            new ScheduleRecord.At(id, "p", test.wallClock().millis() + 86_400_000L))));
        s.append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(new ScheduleChange.Delete(id)));
      } else {
        s.append(EventTypes.STEP_END, filler);
      }
    }
    ToolDefinition list = test.tools().find(a, "schedule_list").orElseThrow();
    ToolDefinition create = test.tools().find(a, "schedule_create").orElseThrow();
    ToolExecution exec = new ToolExecution(a, "c", AbortSignal.never());
    JsonNode listArgs = Json.parse("{}");
    JsonNode createArgs = Json.parse("{\"prompt\":\"p\",\"after_seconds\":86400}");
    // the first call absorbs the 100,000-event log once
    long t0 = System.nanoTime();
    list.body().execute(listArgs, exec).toCompletableFuture().join();
    double firstMs = (System.nanoTime() - t0) / 1e6;
    // twenty active reminders, as a long-running session might hold
    for (int i = 0; i < 20; i++) {
      create.body().execute(createArgs, exec).toCompletableFuture().join();
    }
    int n = 500;
    long[] listNs = new long[n];
    long[] createNs = new long[n];
    for (int i = 0; i < 2 * n; i++) {
      long a0 = System.nanoTime();
      list.body().execute(listArgs, exec).toCompletableFuture().join();
      if (i >= n) {
        listNs[i - n] = System.nanoTime() - a0;
      }
    }
    for (int i = 0; i < 2 * n; i++) {
      long a0 = System.nanoTime();
      create.body().execute(createArgs, exec).toCompletableFuture().join();
      if (i >= n) {
        createNs[i - n] = System.nanoTime() - a0;
      }
    }
    Arrays.sort(listNs);
    Arrays.sort(createNs);
    System.out.printf("LATENCY first call (absorbs 100k events): %.2f ms%n", firstMs);
    System.out.printf("LATENCY schedule_list p50 %.3f ms p90 %.3f ms (20 active)%n",
        listNs[n / 2] / 1e6, listNs[n * 9 / 10] / 1e6);
    System.out.printf("LATENCY schedule_create p50 %.3f ms p90 %.3f ms%n",
        createNs[n / 2] / 1e6, createNs[n * 9 / 10] / 1e6);
    assertThat(createNs[n / 2]).isLessThan(1_000_000L);
    assertThat(listNs[n / 2]).isLessThan(1_000_000L);
  }

  /** The test host with flush answered at once, so timings exclude persistence. */
  private static final class InstantFlushHost implements Host {
    private final TestHost d;
    private final Sessions sessions;

    InstantFlushHost(TestHost d) {
      this.d = d;
      Sessions s = d.sessions();
      this.sessions = new Sessions() {
        @Override public Session create(CreateOptions o) { return s.create(o); }
        @Override public Session fork(Session p, long b, boolean m) { return s.fork(p, b, m); }
        @Override public Session resume(String id) { return s.resume(id); }
        @Override public Optional<Session> get(String id) { return s.get(id); }
        @Override public List<Session> list() { return s.list(); }
        @Override public CompletionStage<Boolean> flush(Session session) {
          return CompletableFuture.completedFuture(true);
        }
        @Override public Registration onFlush(DurabilityListener l) { return s.onFlush(l); }
        @Override public Registration onPreAppend(AppendValidator v) { return s.onPreAppend(v); }
        @Override public Registration onEvent(EventObserver o) { return s.onEvent(o); }
        @Override public Registration onSessionCreated(SessionCreatedListener l) {
          return s.onSessionCreated(l);
        }
      };
    }

    @Override public Sessions sessions() { return sessions; }
    @Override public AgentRegistry agents() { return d.agents(); }
    @Override public ToolRegistry tools() { return d.tools(); }
    @Override public InvariantService invariants() { return d.invariants(); }
    @Override public InstantSource wallClock() { return d.wallClock(); }
    @Override public Timers timers() { return d.timers(); }
    @Override public Supplier<ZoneId> processZone() { return d.processZone(); }
    @Override public IdSource ids() { return d.ids(); }
    @Override public WarningSink warnings() { return d.warnings(); }
    @Override public <T> Optional<T> service(Class<T> type) { return d.service(type); }
    @Override public ScopeHandle newPluginScope() { return d.newPluginScope(); }
  }
}
