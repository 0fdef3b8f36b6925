package dev.horae.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.time.ManualTime;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;

class HoraeAutoConfigurationTest {

  /**
   * A chat model that asks for a reminder when told "remind", and otherwise echoes the newest
   * non-reading user message; it keeps every prompt it received.
   */
  static final class RuleChatModel implements ChatModel {
    final List<Prompt> prompts = new ArrayList<>();

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      List<Message> messages = prompt.getInstructions();
      Message last = messages.get(messages.size() - 1);
      String said = "";
      for (Message m : messages) {
        if (m instanceof UserMessage u && u.getText() != null && !u.getText().startsWith("Time sampled")) {
          said = u.getText();
        }
      }
      AssistantMessage answer;
      if (said.contains("remind") && last instanceof UserMessage && messages.stream().noneMatch(m -> m instanceof AssistantMessage)) {
        answer = AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(
            "c-1", "function", "schedule_create", "{\"after_seconds\":30,\"prompt\":\"stretch\"}"))).build();
      } else {
        answer = new AssistantMessage("echo: " + said);
      }
      return new ChatResponse(List.of(new Generation(answer)));
    }

    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }
  }

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HoraeAutoConfiguration.class))
      .withBean(RuleChatModel.class, RuleChatModel::new);

  private static String lastReading(RuleChatModel model) {
    Prompt p = model.prompts.get(model.prompts.size() - 1);
    return p.getInstructions().stream().map(Message::getText).filter(t -> t != null && t.startsWith("Time sampled"))
        .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no reading in " + p.getInstructions()));
  }

  private static void ask(HoraeRuntime horae, String session, String text) throws Exception {
    RuntimeAgent agent = horae.openAgent(session, "UTC");
    horae.prompt(agent, text);
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void theStarterAloneGivesARuntimeOverTheChatModelAndTheZonePropertyShowsInTheReadings() {
    runner.withPropertyValues("horae.time-context.time-zone=Asia/Tokyo").run(context -> {
      assertThat(context).hasSingleBean(HoraeRuntime.class).hasSingleBean(TimeContextPlugin.class)
          .hasSingleBean(SchedulePlugin.class).hasSingleBean(HoraeRuntimeLifecycle.class);
      HoraeRuntime horae = context.getBean(HoraeRuntime.class);
      ask(horae, "s-1", "hello");
      RuleChatModel model = context.getBean(RuleChatModel.class);
      assertThat(lastReading(model)).contains("[Asia/Tokyo]");
      assertThat(horae.tools().visibleTo(horae.openAgent("s-1"))).extracting(ToolDefinition::name)
          .contains("schedule_create", "job_list");
    });
    runner.withPropertyValues("horae.time-context.time-zone=America/New_York").run(context -> {
      ask(context.getBean(HoraeRuntime.class), "s-1", "hello");
      assertThat(lastReading(context.getBean(RuleChatModel.class))).contains("[America/New_York]");
    });
  }

  @Test
  void pluginsCanBeSwitchedOffAndABadZoneFailsTheStart() {
    runner.withPropertyValues("horae.schedule.enabled=false", "horae.jobs.enabled=false", "horae.time-context.enabled=false")
        .run(context -> {
          assertThat(context).doesNotHaveBean(SchedulePlugin.class).doesNotHaveBean(TimeContextPlugin.class);
          HoraeRuntime horae = context.getBean(HoraeRuntime.class);
          assertThat(horae.tools().visibleTo(horae.openAgent("s"))).isEmpty();
        });
    runner.withPropertyValues("horae.time-context.time-zone=Mars/Olympus").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause()
            .hasMessage("time-context: invalid IANA timeZone \"Mars/Olympus\""));
  }

  @Test
  void theApplicationsOwnBeansWinAndGateBeansArePickedUp() {
    List<String> gated = new ArrayList<>();
    ToolGate gate = (call, state) -> {
      gated.add(call.toolId());
      return CompletableFuture.completedFuture(GateOutcome.block("no reminders today"));
    };
    runner.withBean(ToolGate.class, () -> gate)
        .withBean("myTime", TimeContextPlugin.class, () -> TimeContextPlugin.create(
            dev.horae.timecontext.TimeContextConfig.builder().timeZone("Europe/Lisbon").build()))
        .run(context -> {
          assertThat(context).hasSingleBean(TimeContextPlugin.class).hasBean("myTime");
          HoraeRuntime horae = context.getBean(HoraeRuntime.class);
          ask(horae, "g", "please remind me");
          assertThat(gated).containsExactly("schedule_create");
          assertThat(lastReading(context.getBean(RuleChatModel.class))).contains("[Europe/Lisbon]");
        });
    HoraeRuntime own = HoraeRuntime.builder().build();
    try {
      runner.withBean(HoraeRuntime.class, () -> own, d -> d.setDestroyMethodName(""))
          .run(context -> assertThat(context.getBean(HoraeRuntime.class)).isSameAs(own));
    } finally {
      own.close();
    }
  }

  @Test
  void toolCallbackBeansBecomeSchemaValidatedHoraeTools() {
    org.springframework.ai.tool.ToolCallback lookup = new org.springframework.ai.tool.ToolCallback() {
      @Override
      public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
        return org.springframework.ai.tool.definition.ToolDefinition.builder().name("lookup").description("Looks a word up.")
            .inputSchema("{\"type\":\"object\",\"properties\":{\"word\":{\"type\":\"string\"}},\"required\":[\"word\"]}")
            .build();
      }

      @Override
      public String call(String toolInput) {
        return "found";
      }
    };
    runner.withBean("lookup", org.springframework.ai.tool.ToolCallback.class, () -> lookup)
        .run(context -> {
          HoraeRuntime horae = context.getBean(HoraeRuntime.class);
          RuntimeAgent agent = horae.openAgent("t", "UTC");
          assertThat(horae.tools().visibleTo(agent)).extracting(ToolDefinition::name).contains("lookup", "schedule_create");
          dev.horae.spi.tool.ToolResult result = horae.tools().call(new dev.horae.spi.tool.ToolInvocation(agent,
              new dev.horae.spi.gate.ToolCall("c-9", "lookup", dev.horae.spi.session.Json.parse("{\"word\":\"tide\"}"))),
              dev.horae.spi.AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
          assertThat(result.text()).isEqualTo("found");
          dev.horae.spi.tool.ToolResult invalid = horae.tools().call(new dev.horae.spi.tool.ToolInvocation(agent,
              new dev.horae.spi.gate.ToolCall("c-10", "lookup", dev.horae.spi.session.Json.parse("{}"))),
              dev.horae.spi.AbortSignal.never()).toCompletableFuture().get(10, TimeUnit.SECONDS);
          assertThat(invalid.isError()).isTrue();
          assertThat(invalid.code()).contains(dev.horae.spi.tool.ToolResult.INVALID_ARGS);
        });
  }

  @Test
  void storedSessionsResumeAtStartAndTheDueReminderArrivesAsAnApplicationEvent(@TempDir Path dir) throws Exception {
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    HoraeRuntimeCustomizer manualClock = b -> b.clock(time).timers(time);
    ApplicationContextRunner onDisk = runner.withPropertyValues("horae.data-dir=" + dir, "horae.time-context.time-zone=UTC")
        .withBean(HoraeRuntimeCustomizer.class, () -> manualClock);
    // the first application asks for a reminder and stops before it is due
    onDisk.run(context -> ask(context.getBean(HoraeRuntime.class), "r", "please remind me"));
    time.setWall(Instant.parse("2026-12-01T09:10:00Z"));
    BlockingQueue<UnpromptedReplyEvent> replies = new LinkedBlockingQueue<>();
    ApplicationListener<PayloadApplicationEvent<UnpromptedReplyEvent>> listener = e -> replies.add(e.getPayload());
    // the second one resumes the session at start: the overdue reminder runs and is published
    onDisk.withBean("replies", ApplicationListener.class, () -> listener).run(context -> {
      UnpromptedReplyEvent event = replies.poll(20, TimeUnit.SECONDS);
      if (event == null) {
        throw new AssertionError("no unprompted reply was published");
      }
      assertThat(event.outcome().sessionId()).isEqualTo("r");
      assertThat(event.outcome().finalText()).startsWith("echo: [SCHEDULE REMINDER]").contains("reminder_prompt_json: \"stretch\"");
    });
  }
}
