package dev.horae.examples.langchain4j;

import dev.horae.langchain4j.LangChain4jModel;
import dev.horae.langchain4j.LangChain4jTools;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.runtime.agent.TurnOutcome;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A LangChain4j assistant on the Horae runtime, in the runtime-driven mode: the model is a
 * LangChain4j {@link ChatModel} behind {@link LangChain4jModel}, the application's {@code @Tool}
 * object is registered with {@link LangChain4jTools}, and the runtime adds reminders (Schedule)
 * and a time reading before every step. A reminder that comes due wakes the agent; its reply is
 * printed as {@code [reminder] ...}.
 *
 * <p>With {@code OPENAI_API_KEY} set it talks to a real model ({@code OPENAI_BASE_URL}, default
 * OpenAI's; {@code OPENAI_MODEL}, default {@code gpt-4o-mini}); without, a {@link
 * ScriptedChatModel} answers, and the first line of output says so. Each line of standard input
 * is one prompt; at the end of input it waits for the reminders still pending, then stops.
 * Sessions live in {@code ./horae-langchain4j-data}.
 */
public final class Assistant implements AutoCloseable {

  static final String SESSION = "assistant";

  /** The application's own LangChain4j tool. */
  public static final class Notes {
    private final List<String> notes = new CopyOnWriteArrayList<>();

    /** Creates an empty notebook. */
    public Notes() {}

    /**
     * Keeps a note.
     *
     * @param text the note
     * @return the confirmation the model reads
     */
    @Tool("Keeps a short note for the user")
    public String note(@P("the note") String text) {
      notes.add(text);
      return "noted (" + notes.size() + " notes)";
    }
  }

  private final PrintStream out;
  private final HoraeRuntime horae;
  private final RuntimeAgent agent;
  private int remindersSet;
  private int remindersDelivered;
  private final List<CompletableFuture<Void>> deliveryWaiters = new CopyOnWriteArrayList<>();
  private volatile CompletableFuture<TurnOutcome> nextTurn = new CompletableFuture<>();

  private Assistant(PrintStream out, HoraeRuntime horae, String zone) {
    this.out = out;
    this.horae = horae;
    var unusedReplies = horae.onUnpromptedReply(outcome -> {
      out.println("[reminder] " + outcome.finalText());
      delivered(1, 0);
    });
    var unusedEnds = horae.agents().onTurnEnd(outcome -> {
      if (!outcome.unprompted()) {
        nextTurn.complete(outcome);
      }
    });
    horae.install(TimeContextPlugin.create());
    horae.install(SchedulePlugin.create());
    var unusedTools = LangChain4jTools.register(horae.tools(), new Notes());
    this.agent = horae.openAgent(SESSION, zone).systemPrompt(
        "You are a concise assistant. Use schedule_create for reminders and note for notes. "
            + "Each user message may be followed by a time reading: use it for the current time.");
  }

  /**
   * Starts the assistant: picks the model from the environment and prints which one as its first
   * line.
   *
   * @param env the environment ({@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}, {@code OPENAI_MODEL})
   * @param dataDir the session folder
   * @param out where to print
   * @param clock the wall clock
   * @param timers the timers
   * @return the running assistant
   */
  public static Assistant start(Map<String, String> env, Path dataDir, PrintStream out, InstantSource clock, Timers timers) {
    String key = env.getOrDefault("OPENAI_API_KEY", "");
    ChatModel model;
    if (key.isBlank()) {
      out.println("Horae LangChain4j assistant: no OPENAI_API_KEY set, so a scripted model answers"
          + " (set OPENAI_API_KEY, and optionally OPENAI_BASE_URL and OPENAI_MODEL, for a real one)");
      model = new ScriptedChatModel();
    } else {
      String name = env.getOrDefault("OPENAI_MODEL", "gpt-4o-mini");
      OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder().apiKey(key).modelName(name).timeout(Duration.ofSeconds(60));
      Optional.ofNullable(env.get("OPENAI_BASE_URL")).filter(u -> !u.isBlank()).ifPresent(b::baseUrl);
      out.println("Horae LangChain4j assistant: model " + name + " at " + env.getOrDefault("OPENAI_BASE_URL", "the OpenAI API"));
      model = b.build();
    }
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dataDir).clock(clock).timers(timers)
        .model(LangChain4jModel.of(model)).build();
    return new Assistant(out, horae, ZoneId.systemDefault().getId());
  }

  /**
   * Sends one prompt and waits (at most two minutes) for the turn's reply, which it prints.
   *
   * @param text the prompt
   * @return the reply
   * @throws Exception when the turn did not end in time or the wait was interrupted
   */
  public String ask(String text) throws Exception {
    CompletableFuture<TurnOutcome> turn = new CompletableFuture<>();
    nextTurn = turn;
    horae.prompt(agent, text);
    TurnOutcome outcome = turn.get(2, TimeUnit.MINUTES);
    if (agent.session().events().stream().anyMatch(e -> e.type().equals("tool/call")
        && e.data().path("turn").asLong() == outcome.turn() && e.data().path("tool").asText().equals("schedule_create"))) {
      delivered(0, 1);
    }
    String reply = outcome.reason().equals("completed") ? outcome.finalText() : "(turn ended " + outcome.reason() + ")";
    out.println("assistant> " + reply);
    return reply;
  }

  /**
   * A stage that completes when every reminder set so far has been delivered.
   *
   * @return the stage
   */
  public synchronized CompletableFuture<Void> remindersDelivered() {
    CompletableFuture<Void> waiter = new CompletableFuture<>();
    deliveryWaiters.add(waiter);
    delivered(0, 0);
    return waiter;
  }

  private synchronized void delivered(int deliveries, int set) {
    remindersDelivered += deliveries;
    remindersSet += set;
    if (remindersDelivered >= remindersSet) {
      deliveryWaiters.forEach(w -> w.complete(null));
      deliveryWaiters.clear();
    }
  }

  @Override
  public void close() {
    horae.close();
  }

  /**
   * Runs the assistant on standard input.
   *
   * @param args ignored
   * @throws Exception when reading input fails or a turn does not end
   */
  public static void main(String[] args) throws Exception {
    SystemTime time = new SystemTime();
    // the assistant prints to System.out and closes only its runtime, never the stream
    Assistant assistant = start(System.getenv(), Path.of("horae-langchain4j-data"), System.out, SystemTime.wallClock(), time);
    try {
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = readLine(in)) != null) {
        if (!line.isBlank()) {
          assistant.ask(line);
        }
      }
      // end of input: stay until the reminders set in this run have been delivered
      assistant.remindersDelivered().get(1, TimeUnit.HOURS);
    } finally {
      assistant.close();
      time.close();
    }
  }

  private static String readLine(BufferedReader in) throws IOException {
    System.out.print("you> ");
    System.out.flush();
    return in.readLine();
  }
}
