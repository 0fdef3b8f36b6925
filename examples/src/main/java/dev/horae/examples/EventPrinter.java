package dev.horae.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventObserver;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.io.PrintStream;

/** Prints the model-visible moments of every session as they are appended. */
final class EventPrinter implements EventObserver {

  private final PrintStream out;

  EventPrinter(PrintStream out) {
    this.out = out;
  }

  @Override
  public void onEvent(Session session, SessionEvent event) {
    JsonNode d = event.data();
    switch (event.type()) {
      case "user/message" -> {
        JsonNode source = d.path("source");
        String who = source.path("kind").asText().equals("user")
            ? "user"
            : source.path("plugin").asText() + (source.has("form") ? " " + source.path("form").asText() : "");
        out.println("  [" + who + "] " + indent(text(d.path("content"))));
      }
      case "tool/call" -> out.println("  [model -> tool] " + d.path("tool").asText() + " " + d.path("args"));
      case "tool/result" -> out.println("  [tool result] " + indent(text(d.path("content"))));
      case "assistant/message" -> {
        String text = text(d.path("message").path("content"));
        if (!text.isEmpty()) {
          out.println("  [model] " + text);
        }
      }
      case "schedule/change" -> out.println("  [log] schedule/change " + d.path("operation").asText()
          + (d.has("id") ? " " + d.path("id").asText() : d.path("schedule").has("id") ? " " + d.path("schedule").path("id").asText() : ""));
      case "gate/commit" -> out.println("  [log] gate/commit " + d.path("commit").path("run").path("type").asText());
      default -> { }
    }
  }

  private static String text(JsonNode content) {
    StringBuilder sb = new StringBuilder();
    content.forEach(b -> sb.append(b.path("text").asText()));
    return sb.toString();
  }

  private static String indent(String text) {
    return text.replace("\n", "\n      ");
  }
}
