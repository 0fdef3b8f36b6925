package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.internal.Events;
import java.util.Optional;

/**
 * The shape of a reading message (spec §4.1): content {@code [{type: "text", text}]} and source
 * {@code {kind: "plugin", plugin: "time-context", form: "snapshot", sections: [{name:
 * "time-context", text}]}}.
 *
 * <p>Pure and thread-safe.
 */
public final class ReadingMessages {

  /** The plugin name in a reading's source, and the name of its one section. */
  public static final String PLUGIN = Events.PLUGIN;

  private ReadingMessages() {}

  /**
   * The source of a reading with the given text.
   *
   * @param text the reading text
   * @return a new source object with members in spec order
   */
  public static ObjectNode source(String text) {
    ObjectNode source = Json.mapper().createObjectNode();
    source.put("kind", "plugin");
    source.put("plugin", PLUGIN);
    source.put("form", "snapshot");
    source.putArray("sections").addObject().put("name", PLUGIN).put("text", text);
    return source;
  }

  /**
   * The content of a reading with the given text.
   *
   * @param text the reading text
   * @return a new array holding exactly one text block
   */
  public static ArrayNode content(String text) {
    ArrayNode content = Json.mapper().createArrayNode();
    content.addObject().put("type", "text").put("text", text);
    return content;
  }

  /**
   * Whether a message is attributed to time-context: its source has {@code kind: "plugin"} and
   * {@code plugin: "time-context"}. This is how the refresh gate, the step &gt; 1 baseline and the
   * invariant rules find readings.
   *
   * @param message a message in the {@code user/message} data shape
   * @return true when the source names the plugin
   */
  public static boolean isAttributed(JsonNode message) {
    return Events.isAttributedSource(message.path("source"));
  }

  /**
   * The text of a content list that is exactly one block with exactly the members
   * {@code type: "text"} and a string {@code text}.
   *
   * @param content a message's {@code content} (missing node allowed)
   * @return the text, or empty when the content has any other shape
   */
  public static Optional<String> singleText(JsonNode content) {
    if (!content.isArray() || content.size() != 1) {
      return Optional.empty();
    }
    JsonNode block = content.get(0);
    if (!block.isObject()
        || block.size() != 2
        || !Events.textEquals(block.path("type"), "text")
        || !block.path("text").isTextual()) {
      return Optional.empty();
    }
    return Optional.of(block.path("text").textValue());
  }

  /**
   * Whether a source is exactly the snapshot source of a reading whose text is {@code text}: the
   * four members {@code kind}, {@code plugin}, {@code form}, {@code sections} and nothing else.
   *
   * @param source a message source
   * @param text the reading's content text
   * @return true for the exact snapshot source
   */
  public static boolean isExactSource(JsonNode source, String text) {
    if (!source.isObject()
        || source.size() != 4
        || !Events.isAttributedSource(source)
        || !Events.textEquals(source.path("form"), "snapshot")) {
      return false;
    }
    JsonNode sections = source.path("sections");
    if (!sections.isArray() || sections.size() != 1) {
      return false;
    }
    JsonNode section = sections.get(0);
    return section.isObject()
        && section.size() == 2
        && Events.textEquals(section.path("name"), PLUGIN)
        && Events.textEquals(section.path("text"), text);
  }

  /**
   * Whether a message is a reading of the exact snapshot shape (spec §10 step 2): exact content and
   * exact source carrying the same text. The text itself is not inspected.
   *
   * @param message a message in the {@code user/message} data shape
   * @return true for an exact reading
   */
  public static boolean isExactReading(JsonNode message) {
    Optional<String> text = singleText(message.path("content"));
    return text.isPresent() && isExactSource(message.path("source"), text.get());
  }
}
