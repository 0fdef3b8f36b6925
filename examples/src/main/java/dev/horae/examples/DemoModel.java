package dev.horae.examples;

import dev.horae.spi.gate.ToolCall;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A deterministic stand-in for a real model: it decides each step from what the request carries
 * (the step's newest user messages, the tool results in the history), so the demo needs no network
 * and gives the same answers every run, whatever the timing of notices.
 */
final class DemoModel implements ModelPort {

  private final Duration reminderDelay;
  private int calls;

  DemoModel(Duration reminderDelay) {
    this.reminderDelay = reminderDelay;
  }

  @Override
  public synchronized CompletionStage<ModelResponse> complete(ModelRequest request) {
    return CompletableFuture.completedFuture(answer(request));
  }

  private ModelResponse answer(ModelRequest request) {
    Optional<ChatMessage.User> trigger = request.latestUserMessages().stream()
        .filter(m -> !m.source().plugin().equals(Optional.of("time-context")))
        .reduce((first, second) -> second);
    if (trigger.isEmpty()) {
      return ModelResponse.text(afterTool(request.messages()));
    }
    ChatMessage.User m = trigger.get();
    String text = m.text();
    if (m.source().plugin().equals(Optional.of("tool-schedule"))) {
      return ModelResponse.text(text.contains("Check the release")
          ? "Reminder: time to check the release."
          : "Time to stretch your legs, as you asked.");
    }
    if (m.source().form().equals(Optional.of("notice"))) {
      return ModelResponse.text("Your background build has finished; I read its notice: "
          + m.source().toJson().path("summary").asText());
    }
    if (text.contains("Remind me")) {
      String prompt = text.contains("release") ? "Check the release" : "Stretch your legs";
      return call("schedule_create", "{\"after_seconds\":" + reminderDelay.toSeconds() + ",\"prompt\":\"" + prompt + "\"}");
    }
    if (text.contains("Clean up")) {
      return call("delete_artifacts", "{\"older_than_days\":30}");
    }
    if (text.contains("Email")) {
      return call("send_email", "{\"to\":\"team@example.com\",\"subject\":\"Release notes\"}");
    }
    if (text.contains("build")) {
      return call("bash_background",
          "{\"command\":\"sleep 1; echo 'build ok: 42 tests passed'\",\"description\":\"demo build\"}");
    }
    if (text.contains("scheduled")) {
      return call("schedule_list", "{}");
    }
    return ModelResponse.text("ok");
  }

  private ModelResponse call(String tool, String args) {
    calls++;
    return ModelResponse.calls(new ToolCall("demo-call-" + calls, tool, Json.parse(args)));
  }

  /** Answers the step after a tool call from the last tool result the history shows. */
  private static String afterTool(List<ChatMessage> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i) instanceof ChatMessage.ToolOutcome r) {
        return "Done (" + r.tool() + "): " + r.text().lines().findFirst().orElse("");
      }
    }
    return "ok";
  }
}
