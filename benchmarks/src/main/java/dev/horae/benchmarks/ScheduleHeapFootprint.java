package dev.horae.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolInvocation;
import dev.horae.spi.tool.ToolResult;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;

/**
 * Retained heap per pending reminder (issue 19), measured rather than benchmarked: a JMH score is a
 * time, so this is a plain program run from the benchmarks jar:
 *
 * <pre>{@code java -Xmx1g -cp benchmarks/target/benchmarks.jar dev.horae.benchmarks.ScheduleHeapFootprint 500000}</pre>
 *
 * <p>It creates {@code n} reminders through {@code schedule_create} on the production runtime
 * (flush proven at once, no invariant companion), all pending and armed, then reports the heap retained after a
 * full collection, per reminder. Disposing the agent then releases Schedule's tools, owner and fold
 * while the live session and its log stay, which splits the figure into the host's log (compact events: each payload's JSON text)
 * and Schedule's own share. It also times the last 1,000 creates, to show {@code schedule_create} stays flat.
 */
public final class ScheduleHeapFootprint {

  private ScheduleHeapFootprint() {}

  /**
   * Runs the measurement.
   *
   * @param args the number of reminders (default 100,000)
   */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;

    long empty = Heap.retained();
    HoraeRuntime host = ScheduleHosts.runtime(new ScheduleHosts.InstantStore(), false).horae();
    // held only here, so that dropping it after close lets the fold be collected
    ScheduleHosts.install(host);
    RuntimeAgent agent = host.openAgent("heap");
    JsonNode args1 = Json.parse("{\"prompt\":\"check the deploy\",\"after_seconds\":86400}");
    long lastThousandNanos = 0;
    for (int i = 0; i < n; i++) {
      boolean timed = i >= n - 1_000;
      long t0 = timed ? System.nanoTime() : 0;
      ToolResult r = host.tools()
          .call(new ToolInvocation(agent, new ToolCall("c" + i, "schedule_create", args1)), AbortSignal.never())
          .toCompletableFuture().join();
      if (timed) {
        lastThousandNanos += System.nanoTime() - t0;
      }
      if (r.isError() || r.value().orElseThrow().has("code")) {
        throw new IllegalStateException("create " + i + " failed: " + r.text());
      }
    }
    long withSchedule = Heap.retained();

    // disposing the agent releases its tools, owner and fold; the live session and its log stay
    Session session = agent.session();
    host.agents().dispose(agent).toCompletableFuture().join();
    long logOnly = Heap.retained();
    long logBytes = logOnly - empty;

    long total = withSchedule - empty;
    System.out.printf(
        "HEAP %d pending reminders: %.0f bytes each in all (%.1f MiB), of which the session log"
            + " %.0f and Schedule (fold, owner) %.0f; schedule_create %.1f µs per call over the"
            + " last 1,000; heap max %d MiB%n",
        n, (double) total / n, total / 1048576.0, (double) logBytes / n,
        (double) (total - logBytes) / n, lastThousandNanos / 1_000.0 / 1_000,
        Runtime.getRuntime().maxMemory() / 1048576);
    // keep the log alive until measured
    if (session.length() < n) {
      throw new IllegalStateException("the log was collected early");
    }
  }
}
