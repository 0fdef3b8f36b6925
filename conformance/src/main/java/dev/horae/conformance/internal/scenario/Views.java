package dev.horae.conformance.internal.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolResult;
import java.time.Instant;
import java.util.List;

/** The JSON views scenario expectations compare against (documented in docs/conformance.md). */
final class Views {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private Views() {}

  /** {@code {isError, text, value?, code?}}. */
  static ObjectNode result(ToolResult r) {
    ObjectNode o = F.objectNode();
    o.put("isError", r.isError());
    o.put("text", r.text());
    r.value().ifPresent(v -> o.set("value", v));
    r.code().ifPresent(c -> o.put("code", c));
    return o;
  }

  /** {@code {seq, type, time, data}} with {@code time} as an RFC 3339 UTC string. */
  static ObjectNode event(SessionEvent e) {
    ObjectNode o = F.objectNode();
    o.put("seq", e.seq());
    o.put("type", e.type());
    o.put("time", Instant.ofEpochMilli(e.time()).toString());
    o.set("data", e.data());
    return o;
  }

  /** The message's own JSON ({@code id, role, content, source}). */
  static ObjectNode message(UserMessage m) {
    return m.toJson();
  }

  static ArrayNode messages(List<UserMessage> messages, boolean texts) {
    ArrayNode a = F.arrayNode();
    for (UserMessage m : messages) {
      if (texts) {
        a.add(m.text());
      } else {
        a.add(message(m));
      }
    }
    return a;
  }

  /** The text of a {@code user/message} event's first content block, or the empty string. */
  static String text(SessionEvent e) {
    JsonNode t = e.data().path("content").path(0).path("text");
    return t.isTextual() ? t.textValue() : "";
  }
}
