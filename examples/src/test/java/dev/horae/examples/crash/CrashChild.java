package dev.horae.examples.crash;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.invariant.Companions;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.store.FileSessionStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Child-JVM main of {@link CrashCampaignTest}; args: workload ({@code store}, {@code schedule},
 * {@code gate}), folder, round, random seed, and optionally {@code drain}. Prints {@code ready}
 * once its folder is open, then one line per durable step until killed; with {@code drain} it
 * only recovers the folder (a runtime's reopen closes interrupted turns, performs parked actions
 * and dispatches overdue reminders), waits until nothing is left to do, prints {@code drained}
 * and exits.
 */
public final class CrashChild {

  /** The store workload's session. */
  static final String STORE_SESSION = "crash";
  /** The runtime workloads' session. */
  static final String AGENT_SESSION = "agent";
  /** The side file the gate workload's {@code send_email} appends each sent call id to. */
  static final String EFFECTS = "effects.log";
  /** The folder inside the workload folder that holds the store. */
  static final String DATA = "data";

  private static final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
  private static final int MAX_STEPS = 100_000;

  private CrashChild() {}

  private static void print(String line) {
    synchronized (out) {
      out.print(line + "\n");
      out.flush();
    }
  }

  /**
   * Runs one workload until killed (or, with {@code drain}, until recovered).
   *
   * @param args workload, folder, round, seed[, drain]
   * @throws Exception when the workload fails; the parent reports the child's stderr
   */
  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[1]);
    int round = Integer.parseInt(args[2]);
    Random random = new Random(Long.parseLong(args[3]));
    boolean drain = args.length > 4 && args[4].equals("drain");
    switch (args[0]) {
      case "store" -> store(folder.resolve(DATA), random);
      case "schedule" -> agent(folder, round, drain, false);
      case "gate" -> agent(folder, round, drain, true);
      default -> throw new IllegalArgumentException("unknown workload " + args[0]);
    }
  }

  /**
   * Appends batches of 1..5 events and persists each, printing {@code ack <events> <file bytes>}
   * once the persist completed (the store's flush is durable when its stage completes).
   */
  private static void store(Path root, Random random) {
    SessionHeader header = SessionHeader.root(STORE_SESSION, 0, Optional.empty());
    try (FileSessionStore store = FileSessionStore.open(root)) {
      List<SessionEvent> log = new ArrayList<>(store.load(STORE_SESSION).map(StoredSession::events).orElse(List.of()));
      Path file = root.resolve(STORE_SESSION).resolve("events.log");
      print("ready " + log.size());
      for (int step = 0; step < MAX_STEPS; step++) {
        int size = 1 + random.nextInt(5);
        long first = log.size();
        for (int i = 0; i < size; i++) {
          long seq = log.size();
          ObjectNode data = Json.mapper().createObjectNode();
          data.put("n", seq);
          data.put("batch", first);
          data.put("of", size);
          // small lines keep a campaign's folder small; a few bytes of padding vary the cut points
          data.put("pad", "x".repeat(random.nextInt(200)));
          log.add(SessionEvent.of(seq, "crash/event", seq, data));
        }
        store.persist(header, List.copyOf(log)).toCompletableFuture().join();
        print("ack " + log.size() + " " + Files.size(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Opens the runtime on the folder and prompts in a loop: a reminder due in a second ({@code
   * schedule}) or an email through a gate that schedules it ({@code gate}); prints {@code step
   * <round>-<i>} after each prompt's turn went idle.
   */
  private static void agent(Path folder, int round, boolean drain, boolean gate) throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(folder.resolve(DATA)).model(new Model()).build()) {
      var unusedCompanions = Companions.registerAll(horae);
      if (gate) {
        Path effects = folder.resolve(EFFECTS);
        horae.tools().register(ToolDefinition.builder("send_email")
            .description("Sends an email")
            .body((arguments, exec) -> {
              // the external effect: visible to the parent once written, whatever happens next
              appendLine(effects, exec.callId());
              return CompletableFuture.completedFuture(Json.parse("{\"sent\":true}"));
            })
            .build());
        var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
            call.toolId().equals("send_email") ? GateOutcome.schedule("email-" + call.callId()) : GateOutcome.allow()));
      } else {
        horae.install(SchedulePlugin.create());
      }
      RuntimeAgent agent = horae.openAgent(AGENT_SESSION, "UTC");
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
      print("ready");
      if (drain) {
        drain(agent, gate);
        print("drained");
        return;
      }
      for (int i = 0; i < MAX_STEPS; i++) {
        String step = round + "-" + i;
        horae.prompt(agent, gate ? "Send email " + step : "Remind me " + step, "UTC");
        agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
        print("step " + step);
        // pace the prompts like a user would, so a campaign's log stays a few thousand events
        Thread.sleep(50);
      }
    }
  }

  /** Waits, bounded, until the agent is idle with no active reminder and no parked call. */
  private static void drain(RuntimeAgent agent, boolean gate) throws Exception {
    for (int round = 0; round < 600; round++) {
      agent.whenIdle().toCompletableFuture().get(30, TimeUnit.SECONDS);
      boolean settled = gate
          ? !agent.parked()
          : dev.horae.schedule.ScheduleFold.fold(agent.session().events(), 0).active().isEmpty();
      if (settled) {
        return;
      }
      // reminders are due on the system clock within a few seconds; look again shortly
      Thread.sleep(50);
    }
    throw new IllegalStateException("the folder did not settle");
  }

  private static void appendLine(Path file, String line) {
    try {
      Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Answers from the step's newest user message, as a real model would from its request: a
   * reminder request creates a reminder due in a second, an email request calls {@code
   * send_email} with a call id unique across the campaign, anything else is answered in text.
   */
  private static final class Model implements ModelPort {
    @Override
    public CompletionStage<ModelResponse> complete(ModelRequest request) {
      Optional<ChatMessage.User> last = request.latestUserMessages().stream().reduce((a, b) -> b);
      if (last.isEmpty()) {
        return CompletableFuture.completedFuture(ModelResponse.text("done"));
      }
      String text = last.get().text();
      if (text.startsWith("Remind me ")) {
        String step = text.substring("Remind me ".length());
        return CompletableFuture.completedFuture(ModelResponse.calls(new ToolCall("call-" + step, "schedule_create",
            Json.parse("{\"after_seconds\":1,\"prompt\":\"stretch " + step + "\"}"))));
      }
      if (text.startsWith("Send email ")) {
        String step = text.substring("Send email ".length());
        return CompletableFuture.completedFuture(ModelResponse.calls(new ToolCall("mail-" + step, "send_email",
            Json.parse("{\"to\":\"ada@example.com\",\"subject\":\"" + step + "\"}"))));
      }
      return CompletableFuture.completedFuture(ModelResponse.text("noted"));
    }
  }
}
