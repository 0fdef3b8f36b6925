package dev.horae.benchmarks;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Retained heap of an idle agent after many turns (issue 13), measured rather than benchmarked: a
 * JMH score is a time, so this is a plain program run from the benchmarks jar:
 *
 * <pre>{@code java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.horae.benchmarks.TurnHeapFootprint 1000 10000 100000}</pre>
 *
 * <p>For each count it runs that many full turns of {@link TurnBenchmark} (time-context reading,
 * the stub model, one registry tool) on a fresh production runtime whose store proves every flush
 * at once and keeps nothing, so the only copy of the log is the live session. With the agent idle
 * it reads the retained heap, disposes the agent (the live session and its log stay) and reads it
 * again: the difference is what the agent itself holds — inboxes, phases, its scope, the
 * incremental history projection — and the rest is the session log. It reads the agent's share
 * twice: right after the last turn, while the agent still holds its history projection, and once
 * the agent has stayed idle for the runtime's history retention (ten seconds here, so the turns,
 * which follow each other at once, never release it) and released it; then it times the turn
 * after the release, which projects the history from the log again (a wall-clock figure of one
 * turn, not a benchmark score).
 */
public final class TurnHeapFootprint {

  private TurnHeapFootprint() {}

  /**
   * Runs the measurement.
   *
   * @param args the turn counts (default 1,000, 10,000 and 100,000)
   * @throws InterruptedException when interrupted while waiting for the release
   */
  public static void main(String[] args) throws InterruptedException {
    long[] counts = args.length == 0 ? new long[] {1_000, 10_000, 100_000} : java.util.Arrays.stream(args).mapToLong(Long::parseLong).toArray();
    System.out.println("turns      log events   retained MiB   agent share, holding   agent share, idle   log bytes/turn   next turn ms");
    for (long n : counts) {
      measure(n);
    }
  }

  private static void measure(long turns) throws InterruptedException {
    long empty = Heap.retained();
    HoraeRuntime horae = HoraeRuntime.builder().store(new ScheduleHosts.InstantStore()).model(TurnBenchmark.STUB)
        .idleHistoryRetention(Duration.ofSeconds(10)).build();
    horae.install(TimeContextPlugin.create());
    horae.tools().register(ToolDefinition.builder("echo")
        .description("Echoes its text.")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}"))
        .body((args, exec) -> CompletableFuture.completedFuture(args))
        .build());
    RuntimeAgent agent = horae.openAgent("heap");
    for (long i = 0; i < turns; i++) {
      horae.prompt(agent, "ping the echo tool");
      agent.whenIdle().toCompletableFuture().join();
    }
    long events = agent.session().length();
    long holding = Heap.retained();
    // the collections of a big heap can outlast the retention: then the first read came too late
    boolean heldThroughout = agent.holdsHistory();
    // the release runs on the runtime's timer thread once the retention has passed
    for (int i = 0; i < 600 && agent.holdsHistory(); i++) {
      Thread.sleep(100);
    }
    if (agent.holdsHistory()) {
      throw new IllegalStateException("the idle agent did not release its history within 60 s");
    }
    long idle = Heap.retained();
    // the first turn after the release reads the log's model-visible events again
    long start = System.nanoTime();
    horae.prompt(agent, "ping the echo tool");
    agent.whenIdle().toCompletableFuture().join();
    double afterRelease = (System.nanoTime() - start) / 1e6;
    horae.agents().dispose(agent).toCompletableFuture().join();
    agent = null;
    long withoutAgent = Heap.retained();
    System.out.printf(Locale.ROOT, "%-10d %-12d %-14.1f %-22s %-19d %-16d %.1f%n", turns, events, (idle - empty) / 1048576.0,
        heldThroughout ? Long.toString(holding - withoutAgent) : "n/a (released)", idle - withoutAgent,
        (withoutAgent - empty) / turns, afterRelease);
    horae.close();
  }
}
