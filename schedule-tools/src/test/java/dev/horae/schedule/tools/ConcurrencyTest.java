package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleState;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.spi.tool.ToolExecution;
import dev.horae.testkit.agent.TestAgent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue acceptance: 8 threads issuing create/list/delete on one agent never interleave a fold
 * with a mutation; the log always folds, ids never repeat, and the incremental fold equals a full
 * fold. Tool bodies are called directly so that the registry's own per-agent serialization does
 * not hide a missing FIFO.
 */
class ConcurrencyTest {

  @Test
  void eightThreadsNeverInterleaveAFoldWithAMutation() throws Exception {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    ToolDefinition create = f.host.tools().find(a, "schedule_create").orElseThrow();
    ToolDefinition list = f.host.tools().find(a, "schedule_list").orElseThrow();
    ToolDefinition delete = f.host.tools().find(a, "schedule_delete").orElseThrow();
    ToolExecution exec = new ToolExecution(a, "c", AbortSignal.never());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<List<JsonNode>>> workers = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Random rnd = new Random(t);
      workers.add(CompletableFuture.supplyAsync(() -> {
        List<JsonNode> results = new ArrayList<>();
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        for (int i = 0; i < 60; i++) {
          int dice = rnd.nextInt(3);
          JsonNode r = switch (dice) {
            case 0 -> create.body().execute(Json.parse("{\"prompt\":\"p\",\"after_seconds\":" + (100 + i) + "}"), exec)
                .toCompletableFuture().join();
            case 1 -> list.body().execute(Json.parse("{}"), exec).toCompletableFuture().join();
            default -> delete.body().execute(Json.parse("{\"id\":\"schedule-" + (1 + rnd.nextInt(40)) + "\"}"), exec)
                .toCompletableFuture().join();
          };
          results.add(r);
        }
        return results;
      }, pool));
    }
    start.countDown();
    List<JsonNode> all = new ArrayList<>();
    for (CompletableFuture<List<JsonNode>> w : workers) {
      all.addAll(w.get(60, TimeUnit.SECONDS));
    }
    pool.shutdown();
    assertThat(all).noneMatch(r -> r.path("code").asText().equals("internal_error"));
    assertThat(all).noneMatch(r -> r.path("code").asText().equals("corrupt_schedule_log"));
    Set<String> createdIds = new HashSet<>();
    for (JsonNode r : all) {
      if (r.has("kind")) {
        assertThat(createdIds.add(r.get("id").asText())).as("id reused: %s", r).isTrue();
      }
    }
    ScheduleState full = f.fold(a);
    assertThat(full.seenIds()).doesNotHaveDuplicates().hasSize(createdIds.size());
    // the cached incremental fold answers exactly like a full fold
    String listed = f.list(a);
    StringBuilder expected = new StringBuilder("[");
    long now = f.host.wallClock().millis();
    for (ScheduleRecord r : full.active()) {
      if (expected.length() > 1) {
        expected.append(',');
      }
      expected.append(dev.horae.schedule.ScheduleView.of(r, now).toJson());
    }
    assertThat(listed).isEqualTo(expected.append(']').toString());
    assertThat(ScheduleFold.start(0).absorbLog(a.session().events()).state()).isEqualTo(full);
  }
}
