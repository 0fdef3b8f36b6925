package dev.horae.spi.message;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * An immutable user message (host contract §7.1): {@code {id, role: "user", content, source}}.
 *
 * @param id a fresh UUID string from the injected id source
 * @param content the content blocks
 * @param source where the message came from
 */
public record UserMessage(String id, List<ContentBlock> content, MessageSource source) {

  /** Copies the content list. */
  public UserMessage {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(source, "source");
    content = List.copyOf(content);
  }

  /**
   * The concatenated text of every block.
   *
   * @return the text
   */
  public String text() {
    // one block is the usual message: its own string, so a projection shares it with the log
    return content.size() == 1 ? content.get(0).text() : content.stream().map(ContentBlock::text).collect(Collectors.joining());
  }

  /**
   * The {@code user/message} event payload.
   *
   * @return {@code {id, role: "user", content: [...], source}}
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("id", id);
    o.put("role", "user");
    ArrayNode a = o.putArray("content");
    content.forEach(b -> a.add(b.toJson()));
    o.set("source", source.toJson());
    return o;
  }

  /**
   * Reads a message from a {@code user/message} payload. Non-text blocks are ignored.
   *
   * @param json the payload
   * @return the message
   * @throws IllegalArgumentException when {@code id}, {@code content} or {@code source} is
   *     missing or mistyped
   */
  public static UserMessage fromJson(JsonNode json) {
    if (!json.path("id").isTextual() || !json.path("content").isArray()) {
      throw new IllegalArgumentException("user message needs a string \"id\" and an array \"content\"");
    }
    List<ContentBlock> blocks = new ArrayList<>();
    for (JsonNode b : json.get("content")) {
      if (b.path("type").asText().equals("text") && b.path("text").isTextual()) {
        blocks.add(new ContentBlock(b.get("text").asText()));
      }
    }
    return new UserMessage(json.get("id").asText(), blocks, MessageSource.fromJson(json.path("source")));
  }
}
