package dev.horae.spi.message;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The source of a user message (host contract §7.2), kept as its exact JSON object so that member
 * order and form-specific members survive unchanged. Build one with the static factories.
 */
public final class MessageSource {

  private final ObjectNode json;

  private static final String WAKE_BUDGET = "wakeBudget";
  private static final String WAKE_BUDGET_EXHAUSTED = "exhausted";

  private MessageSource(ObjectNode json) {
    this.json = json;
  }

  /**
   * A message typed by a user through a host without request metadata: {@code {kind: "user"}}.
   *
   * @return the source
   */
  public static MessageSource user() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("kind", "user");
    return new MessageSource(o);
  }

  /**
   * A prompt submitted over a host RPC: {@code {kind: "user", rpcId, clientTimeZone?}}. The zone
   * must already be admitted ({@link PromptAdmission#admitClientZone}).
   *
   * @param rpcId the request id
   * @param clientTimeZone the canonical client zone, if the client reported one
   * @return the source
   */
  public static MessageSource rpc(String rpcId, Optional<String> clientTimeZone) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("kind", "user");
    o.put("rpcId", rpcId);
    clientTimeZone.ifPresent(z -> o.put("clientTimeZone", z));
    return new MessageSource(o);
  }

  /**
   * A message produced by a library component: {@code {kind: "plugin", plugin}}.
   *
   * @param plugin the plugin name
   * @return the source
   */
  public static MessageSource plugin(String plugin) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("kind", "plugin");
    o.put("plugin", plugin);
    return new MessageSource(o);
  }

  /**
   * A plugin snapshot: {@code {kind: "plugin", plugin, form: "snapshot", sections: [{name, text}]}}.
   *
   * @param plugin the plugin name
   * @param sections section name → text, in iteration order
   * @return the source
   */
  public static MessageSource snapshot(String plugin, List<Map.Entry<String, String>> sections) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("kind", "plugin");
    o.put("plugin", plugin);
    o.put("form", "snapshot");
    ArrayNode a = o.putArray("sections");
    for (Map.Entry<String, String> s : sections) {
      a.addObject().put("name", s.getKey()).put("text", s.getValue());
    }
    return new MessageSource(o);
  }

  /**
   * A plugin notice: {@code {kind: "plugin", plugin, form: "notice", summary}}.
   *
   * @param plugin the plugin name
   * @param summary the one-line summary
   * @return the source
   */
  public static MessageSource notice(String plugin, String summary) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("kind", "plugin");
    o.put("plugin", plugin);
    o.put("form", "notice");
    o.put("summary", summary);
    return new MessageSource(o);
  }

  /**
   * This notice's source marked as held back by its owner's wake budget: the member {@code
   * wakeBudget: "exhausted"}, which a jobs notice carries when it would have woken its idle owner
   * but was injected because the consecutive-wake budget was spent (docs/jobs.md, "The completion
   * notice"; a form-specific member, host contract §7.2). The one home of the member's name and
   * value: the jobs controller writes it, the operations meters read it from the log.
   *
   * @return a new source with the member
   */
  public MessageSource withWakeBudgetExhausted() {
    ObjectNode o = json.deepCopy();
    o.put(WAKE_BUDGET, WAKE_BUDGET_EXHAUSTED);
    return new MessageSource(o);
  }

  /**
   * Whether a source, in its JSON form as logged, says its notice was held back by a spent wake
   * budget ({@link #withWakeBudgetExhausted()}).
   *
   * @param source the {@code source} member of a {@code user/message} event
   * @return true when it carries {@code wakeBudget: "exhausted"}
   */
  public static boolean wakeBudgetExhausted(JsonNode source) {
    return source.path(WAKE_BUDGET).asText("").equals(WAKE_BUDGET_EXHAUSTED);
  }

  /**
   * Reads a source from its JSON form (as found in a {@code user/message} event).
   *
   * @param json the source object
   * @return the source, holding a private copy
   * @throws IllegalArgumentException when {@code json} is not an object with a string {@code kind}
   */
  public static MessageSource fromJson(JsonNode json) {
    if (!json.isObject() || !json.path("kind").isTextual()) {
      throw new IllegalArgumentException("message source must be an object with a string \"kind\"");
    }
    return new MessageSource((ObjectNode) json.deepCopy());
  }

  /**
   * The source kind, {@code user} or {@code plugin}.
   *
   * @return the kind
   */
  public String kind() {
    return json.path("kind").asText();
  }

  /**
   * The RPC id of a prompt submitted over RPC.
   *
   * @return the id, or empty
   */
  public Optional<String> rpcId() {
    return text("rpcId");
  }

  /**
   * The client zone a prompt carried.
   *
   * @return the zone, or empty
   */
  public Optional<String> clientTimeZone() {
    return text("clientTimeZone");
  }

  /**
   * The plugin name of a plugin source.
   *
   * @return the name, or empty for user sources
   */
  public Optional<String> plugin() {
    return text("plugin");
  }

  /**
   * The form of a plugin source ({@code snapshot}, {@code notice}).
   *
   * @return the form, or empty
   */
  public Optional<String> form() {
    return text("form");
  }

  /**
   * Whether a user typed this message (any {@code kind: "user"} source).
   *
   * @return true for user sources
   */
  public boolean isUser() {
    return kind().equals("user");
  }

  /**
   * A copy of the JSON form.
   *
   * @return the source object
   */
  public ObjectNode toJson() {
    return json.deepCopy();
  }

  private Optional<String> text(String name) {
    JsonNode v = json.get(name);
    return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageSource other && other.json.equals(json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return Json.write(json);
  }
}
