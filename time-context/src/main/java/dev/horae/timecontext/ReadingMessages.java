package dev.horae.timecontext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.internal.Events;

/**
 * The shape of a reading message (spec §4.1): content {@code [{type: "text", text}]} and source
 * {@code {kind: "plugin", plugin: "time-context", form: "snapshot", sections: [{name:
 * "time-context", text}]}}. This class writes it; the exact-shape check that Schedule and the
 * invariant read it by is {@link dev.horae.spi.zone.TimeContextAuthority#isReading}.
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
}
