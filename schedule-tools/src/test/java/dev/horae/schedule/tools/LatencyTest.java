package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.Arrays;
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
    WrappedHost host = new WrappedHost(test);
    host.instantFlush = true;
    SchedulePlugin.create().install(host);
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
}
