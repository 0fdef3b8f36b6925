package dev.horae.examples.spring.docs;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spring.boot.UnpromptedReplyEvent;
import dev.horae.springai.HoraeAdvisors;
import dev.horae.springai.SpringAiModelPort;
import dev.horae.springai.SpringAiTools;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/** The snippets of {@code docs/spring-ai.md}, compiled. */
public final class SpringAiUsage {

  private SpringAiUsage() {}

  /**
   * Runtime-driven mode without Spring Boot: the runtime owns the loop over a Spring AI model.
   *
   * @param chatModel any Spring AI chat model
   * @param sendEmail an application tool
   * @param push where unprompted replies go
   */
  public static void runtimeDriven(ChatModel chatModel, ToolCallback sendEmail, Consumer<String> push) {
    // snippet:runtime-driven
    try (HoraeRuntime horae = HoraeRuntime.builder().dataDir(Path.of("horae-data"))
        .model(SpringAiModelPort.of(chatModel)).build()) {
      horae.install(TimeContextPlugin.create(TimeContextConfig.builder().timeZone("Europe/Amsterdam").build()));
      horae.install(SchedulePlugin.create());
      horae.closeOnShutdown(SpringAiTools.register(horae.tools(), sendEmail));   // gated, validated, bounded
      var unusedGate = horae.gates().register((call, state) -> CompletableFuture.completedFuture(
          call.toolId().equals("send_email") ? GateOutcome.requireConfirmation("mail-" + call.callId()) : GateOutcome.allow()));
      horae.closeOnShutdown(horae.onUnpromptedReply(outcome -> push.accept(outcome.finalText())));
      RuntimeAgent agent = horae.openAgent("support-42", "Europe/Amsterdam");
      horae.prompt(agent, "Remind me in 10 minutes to email Ada the report.");
      // later: horae.awaiting() lists the parked email; horae.approve(runId) sends it once
    }
    // end-snippet
  }

  /**
   * Borrowed-loop mode: the application keeps its ChatClient.
   *
   * @param horae the runtime (for reminders to wake, give it the same model as SpringAiModelPort)
   * @param chatModel the chat model
   * @return the answer
   */
  public static String borrowedLoop(HoraeRuntime horae, ChatModel chatModel) {
    // snippet:borrowed-loop
    ChatClient chat = ChatClient.builder(chatModel)
        .defaultAdvisors(HoraeAdvisors.builder(horae).build())   // Horae tools, gates, readings
        .build();
    String answer = chat.prompt().user("Remind me in 10 minutes to call Ada.")
        .advisors(a -> a.param(HoraeAdvisors.SESSION, "support-42"))
        .call().content();
    // end-snippet
    return answer == null ? "" : answer;
  }

  /** Spring Boot: the starter does the wiring; an application adds gates and listens for replies. */
  public static class BootApplicationBeans {

    /** Creates the beans. */
    public BootApplicationBeans() {}

    // snippet:boot
    @Bean
    ToolGate confirmEmails() {                       // every ToolGate bean joins the gate chain
      return (call, state) -> CompletableFuture.completedFuture(call.toolId().equals("send_email")
          ? GateOutcome.requireConfirmation("mail-" + call.callId()) : GateOutcome.allow());
    }

    @EventListener
    void push(UnpromptedReplyEvent event) {          // a reminder or job notice woke the agent
      System.out.println(event.outcome().sessionId() + ": " + event.outcome().finalText());
    }
    // end-snippet
  }
}
