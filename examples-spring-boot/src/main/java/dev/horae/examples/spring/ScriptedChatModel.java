package dev.horae.examples.spring;

import java.util.List;
import org.jspecify.annotations.Nullable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * The assistant's model when no API key is set: a few rules over the request a real model would
 * get. "remind me in N seconds|minutes to X" calls {@code schedule_create}; a due reminder is
 * passed on; a tool result is confirmed; anything else is echoed with the latest time reading.
 */
public final class ScriptedChatModel implements ChatModel {

  private static final Pattern REMIND =
      Pattern.compile("remind me in (\\d+) (second|minute)s? to (.+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern REMINDER_PROMPT = Pattern.compile("reminder_prompt_json: \"(.*)\"");

  private int calls;

  /** Creates the model. */
  public ScriptedChatModel() {}

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    List<Message> messages = prompt.getInstructions();
    String reading = "";
    String said = "";
    int i = messages.size() - 1;
    for (; i >= 0 && messages.get(i) instanceof UserMessage; i--) {
      String raw = messages.get(i).getText();
      String text = raw == null ? "" : raw;
      if (text.startsWith("Time sampled")) {
        reading = text.lines().findFirst().orElse("");
      } else if (said.isEmpty()) {
        said = text;
      }
    }
    // the step's input: the user messages after the last assistant message or tool results
    return answer(i >= 0 ? messages.get(i) : null, said, reading);
  }

  private ChatResponse answer(@Nullable Message before, String said, String reading) {
    if (before instanceof ToolResponseMessage tool) {
      return text("Done. (" + tool.getResponses().get(0).responseData().lines().findFirst().orElse("") + ")");
    }
    Matcher reminder = REMINDER_PROMPT.matcher(said);
    if (said.startsWith("[SCHEDULE REMINDER]") && reminder.find()) {
      return text("Reminder: " + reminder.group(1));
    }
    Matcher ask = REMIND.matcher(said);
    if (ask.find()) {
      long seconds = Long.parseLong(ask.group(1)) * (ask.group(2).equalsIgnoreCase("minute") ? 60 : 1);
      String args = "{\"after_seconds\":" + seconds + ",\"prompt\":\"" + ask.group(3).replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
      calls++;
      AssistantMessage call = AssistantMessage.builder().content("")
          .toolCalls(List.of(new AssistantMessage.ToolCall("scripted-" + calls, "function", "schedule_create", args))).build();
      return new ChatResponse(List.of(new Generation(call)));
    }
    return text("You said \"" + said + "\". " + reading);
  }

  private static ChatResponse text(String text) {
    return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
  }

  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }
}
