package dev.horae.benchmarks;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One full turn on the production runtime ({@link HoraeRuntime}): the prompt is claimed, the
 * time-context pre-step adds its reading, the request is rebuilt from the model-visible history,
 * a stub model calls one registry tool ({@code echo}, schema-validated), the tool result is
 * recorded, the model answers, the turn ends and the session is flushed to the store. Two steps,
 * two model requests and about fifteen appended events per turn, on the in-memory store and on the
 * file store (one fsync per turn).
 *
 * <p>Each iteration starts on a fresh session, so the history the request is rebuilt from stays
 * small (a few hundred turns); a request over a long history costs the projection of that history.
 */
@SuppressWarnings("NullAway.Init") // JMH fills the state in @Setup methods
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class TurnBenchmark {

  /** Where the sessions live: {@code memory} or {@code file}. */
  @Param({"memory", "file"})
  public String store;

  private Path dir;
  private FileSessionStore fileStore;
  private HoraeRuntime horae;
  private RuntimeAgent agent;
  private int sessions;

  /** Step 1 calls {@code echo}; the step after a tool result answers. */
  static final ModelPort STUB = request -> {
    boolean afterTool = (!request.messages().isEmpty()
        && request.messages().get(request.messages().size() - 1) instanceof ChatMessage.ToolOutcome)
        || request.latestUserMessages().stream().noneMatch(m -> m.source().kind().equals("user"));
    return CompletableFuture.completedFuture(afterTool
        ? ModelResponse.text("done")
        : ModelResponse.calls(new ToolCall("call-" + request.turn(), "echo", Json.parse("{\"text\":\"ping\"}"))));
  };

  /** Opens the runtime once per trial. */
  @Setup(Level.Trial)
  public void open() throws IOException {
    HoraeRuntime.Builder b = HoraeRuntime.builder().model(STUB);
    if (store.equals("file")) {
      dir = Files.createTempDirectory("horae-turn-bench");
      fileStore = FileSessionStore.open(dir);
      b.store(fileStore);
    } else {
      b.store(new MemorySessionStore());
    }
    horae = b.build();
    horae.install(TimeContextPlugin.create());
    horae.tools().register(ToolDefinition.builder("echo")
        .description("Echoes its text.")
        .parameters(Json.parse("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}"))
        .body((args, exec) -> CompletableFuture.completedFuture(args))
        .build());
  }

  /** A fresh session per iteration, so the history stays short. */
  @Setup(Level.Iteration)
  public void freshSession() {
    sessions++;
    agent = horae.openAgent("bench-" + sessions);
  }

  /**
   * One turn, flushed.
   *
   * @return the session length, so the work is not dead code
   */
  @Benchmark
  public long turn() {
    horae.prompt(agent, "ping the echo tool");
    agent.whenIdle().toCompletableFuture().join();
    horae.sessions().flush(agent.session()).toCompletableFuture().join();
    return agent.session().length();
  }

  /** Closes the runtime and removes the file store's folder. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    horae.close();
    if (fileStore != null) {
      fileStore.close();
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> {
          try {
            Files.delete(p);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
    }
  }
}
