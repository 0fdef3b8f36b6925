package dev.horae.examples;

import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.agent.Model;
import dev.horae.testkit.agent.ModelReply;
import dev.horae.testkit.agent.ModelRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A deterministic stand-in for a real model: it decides each step from what the step carries, so
 * the demo needs no network and gives the same answers every run, whatever the timing of
 * notices.
 */
final class DemoModel implements Model {

  private final Sessions sessions;
  private final Duration reminderDelay;
  private int calls;

  DemoModel(Sessions sessions, Duration reminderDelay) {
    this.sessions = sessions;
    this.reminderDelay = reminderDelay;
  }

  @Override
  public synchronized ModelReply reply(ModelRequest request) {
    Optional<UserMessage> trigger = request.messages().stream()
        .filter(m -> !m.source().plugin().equals(Optional.of("time-context")))
        .reduce((first, second) -> second);
    if (trigger.isEmpty()) {
      return new ModelReply.Text(afterTool(request.agentId()));
    }
    UserMessage m = trigger.get();
    String text = m.text();
    if (m.source().plugin().equals(Optional.of("tool-schedule"))) {
      return new ModelReply.Text("Time to stretch your legs, as you asked.");
    }
    if (m.source().form().equals(Optional.of("notice"))) {
      return new ModelReply.Text("Your background build has finished; I read its notice: "
          + m.source().toJson().path("summary").asText());
    }
    if (text.contains("Remind me")) {
      return call("schedule_create", "{\"after_seconds\":" + reminderDelay.toSeconds() + ",\"prompt\":\"Stretch your legs\"}");
    }
    if (text.contains("build")) {
      return call("bash_background",
          "{\"command\":\"sleep 1; echo 'build ok: 42 tests passed'\",\"description\":\"demo build\"}");
    }
    if (text.contains("scheduled")) {
      return call("schedule_list", "{}");
    }
    return new ModelReply.Text("ok");
  }

  private ModelReply call(String tool, String args) {
    calls++;
    return new ModelReply.ToolCalls(List.of(new ModelReply.Call("demo-call-" + calls, tool, Json.parse(args))));
  }

  /** Answers the step after a tool call from the tool's result in the log. */
  private String afterTool(String agentId) {
    // a session-backed agent's id is its session id
    List<SessionEvent> events = sessions.get(agentId).map(s -> s.events()).orElse(List.of());
    for (int i = events.size() - 1; i >= 0; i--) {
      SessionEvent e = events.get(i);
      if (e.type().equals("tool/result")) {
        StringBuilder sb = new StringBuilder();
        e.data().path("content").forEach(b -> sb.append(b.path("text").asText()));
        return "Done (" + e.data().path("tool").asText() + "): " + sb.toString().lines().findFirst().orElse("");
      }
    }
    return "ok";
  }
}
