package dev.horae.examples.docs;

import dev.horae.langchain4j.BorrowedLoop;
import dev.horae.langchain4j.LangChain4jModel;
import dev.horae.langchain4j.LangChain4jTools;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The snippets of docs/langchain4j.md, compiled here so that SnippetsTest holds the page to them.
 * They need a real model to run; the langchain4j module's tests run the same calls against a
 * loopback OpenAI endpoint.
 */
final class LangChain4jUsage {

  private LangChain4jUsage() {}

  /** The application's own tool. */
  static final class WeatherTools {
    @Tool("Current temperature of a city")
    String temperature(String city) {
      return city + ": 21 C";
    }
  }

  /** The application's AiServices interface. */
  interface Assistant {
    String chat(@MemoryId String session, @UserMessage String text);
  }

  static void runtimeDriven() {
    ChatModel chatModel = OpenAiChatModel.builder().apiKey(System.getenv("OPENAI_API_KEY")).modelName("gpt-4o-mini").build();
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(Path.of("horae-data"))
        .model(LangChain4jModel.of(chatModel)).build()) {           // or LangChain4jModel.of(streamingChatModel)
      horae.install(TimeContextPlugin.create());                    // a time reading before every step
      horae.install(SchedulePlugin.create());                       // schedule_create / _list / _delete
      LangChain4jTools.register(horae.tools(), new WeatherTools());  // your @Tool methods, behind the gates
      horae.gates().register((call, state) -> CompletableFuture.completedFuture(
          call.toolId().equals("temperature") ? GateOutcome.requireConfirmation("ask-" + call.callId()) : GateOutcome.allow()));
      horae.onUnpromptedReply(outcome -> System.out.println(outcome.finalText()));  // a reminder woke the agent

      RuntimeAgent agent = horae.openAgent("user-42", "Europe/Amsterdam");
      horae.prompt(agent, "Remind me in 10 minutes to check the deploy.");
    }
  }

  static String borrowedLoop(HoraeRuntime horae, ChatModel chatModel) {
    BorrowedLoop loop = BorrowedLoop.create(horae, Optional.of("Europe/Amsterdam"));
    Assistant assistant = loop.configure(AiServices.builder(Assistant.class).chatModel(chatModel)).build();
    String answer = assistant.chat("user-42", "Remind me in 10 minutes to check the deploy.");
    return answer;
  }
}
