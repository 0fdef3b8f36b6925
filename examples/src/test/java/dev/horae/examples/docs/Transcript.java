package dev.horae.examples.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;

/** Renders the model-visible part of a session log as the docs show it. */
public final class Transcript {

  private Transcript() {}

  /**
   * One line per user message, tool call and tool result, in log order: the texts the model saw.
   *
   * @param session the session to read
   * @return lines such as {@code [tool result schedule_list] [...]}
   */
  public static List<String> of(Session session) {
    List<String> lines = new ArrayList<>();
    for (SessionEvent e : session.events()) {
      JsonNode d = e.data();
      switch (e.type()) {
        case EventTypes.USER_MESSAGE -> lines.add("[user message, source " + d.path("source").path("kind").asText()
            + plugin(d) + "]\n" + d.path("content").path(0).path("text").asText());
        case EventTypes.TOOL_CALL -> lines.add("[tool call " + d.path("tool").asText() + "] " + d.path("args"));
        case EventTypes.TOOL_RESULT -> lines.add("[tool result " + d.path("tool").asText()
            + (d.path("isError").asBoolean() ? ", isError" : "") + "] " + d.path("content").path(0).path("text").asText());
        case EventTypes.SCHEDULE_CHANGE -> lines.add("[log schedule/change] " + d);
        default -> { }
      }
    }
    return lines;
  }

  private static String plugin(JsonNode data) {
    JsonNode p = data.path("source").path("plugin");
    return p.isMissingNode() ? "" : " " + p.asText() + "/" + data.path("source").path("form").asText();
  }
}
