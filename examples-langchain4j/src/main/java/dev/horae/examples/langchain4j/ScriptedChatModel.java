package dev.horae.examples.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A LangChain4j chat model that answers by rules, for running the assistant without an API key:
 * "remind me in N seconds|minutes to X" calls {@code schedule_create}, a due reminder is read back,
 * "time" answers from the newest time reading, "note X" calls the {@code note} tool. It reads the
 * request the runtime built, exactly as a real model would receive it.
 */
public final class ScriptedChatModel implements ChatModel {

  private static final Pattern REMIND = Pattern.compile("remind me in (\\d+) (second|minute)s? (?:to )?(.+?)\\.?$", Pattern.CASE_INSENSITIVE);
  private static final Pattern PROMPT = Pattern.compile("reminder_prompt_json: \"(.*)\"");
  private final AtomicInteger calls = new AtomicInteger();

  /** Creates the model. */
  public ScriptedChatModel() {}

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    String reading = "";
    int at = messages.size() - 1;
    while (at > 0 && messages.get(at) instanceof UserMessage u && u.singleText().startsWith("Time sampled while preparing")) {
      reading = u.singleText();
      at--;
    }
    ChatMessage last = messages.get(at);
    if (last instanceof ToolExecutionResultMessage r) {
      return text(r.toolName().equals("schedule_create") ? "OK, the reminder is set: " + r.text() : "Done: " + r.text());
    }
    String said = last instanceof UserMessage u && u.hasSingleText() ? u.singleText() : "";
    Matcher due = PROMPT.matcher(said);
    if (said.startsWith("[SCHEDULE REMINDER]") && due.find()) {
      return text("Reminder: " + due.group(1));
    }
    Matcher remind = REMIND.matcher(said.strip());
    if (remind.find()) {
      long seconds = Long.parseLong(remind.group(1)) * (remind.group(2).toLowerCase(Locale.ROOT).startsWith("minute") ? 60 : 1);
      return call("schedule_create", "{\"after_seconds\":" + seconds + ",\"prompt\":\"" + remind.group(3).replace("\"", "'") + "\"}");
    }
    if (said.toLowerCase(Locale.ROOT).startsWith("note ")) {
      return call("note", "{\"text\":\"" + said.substring(5).replace("\"", "'") + "\"}");
    }
    if (said.toLowerCase(Locale.ROOT).contains("time")) {
      return text(reading.isEmpty() ? "I have no time reading." : reading.lines().findFirst().orElse(""));
    }
    return text("(scripted) Try: \"Remind me in 10 seconds to stretch.\", \"note buy milk\" or \"What time is it?\"");
  }

  private static ChatResponse text(String text) {
    return ChatResponse.builder().aiMessage(AiMessage.from(text)).finishReason(FinishReason.STOP).build();
  }

  private ChatResponse call(String tool, String arguments) {
    ToolExecutionRequest r = ToolExecutionRequest.builder().id("scripted-" + calls.incrementAndGet()).name(tool).arguments(arguments).build();
    return ChatResponse.builder().aiMessage(AiMessage.from(r)).finishReason(FinishReason.TOOL_EXECUTION).build();
  }
}
