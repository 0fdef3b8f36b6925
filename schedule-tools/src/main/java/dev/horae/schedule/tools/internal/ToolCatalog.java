package dev.horae.schedule.tools.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.PresentationCard;
import dev.horae.spi.tool.ToolBody;
import dev.horae.spi.tool.ToolDefinition;
import java.util.List;
import java.util.Optional;

/**
 * The generated tool catalog (spec §6.1, §7, §8): names, verbatim descriptions, input schemas,
 * closed output schemas, presentation cards and the canonical JSON renderer.
 */
public final class ToolCatalog {

  /** {@code schedule_create}. */
  public static final String CREATE = "schedule_create";
  /** {@code schedule_list}. */
  public static final String LIST = "schedule_list";
  /** {@code schedule_delete}. */
  public static final String DELETE = "schedule_delete";

  static final String CREATE_DESCRIPTION =
      "Create one reminder in the current session. Supply a non-empty prompt and exactly one"
          + " selector: a positive safe-integer after_seconds delay, or at as a strict offset"
          + " date-time or local date/time object. Delivery is session-local: the reminder runs on"
          + " time only while this session is live and otherwise becomes overdue until the session"
          + " is resumed.";
  static final String LIST_DESCRIPTION =
      "List every active reminder in the current session in creation order, including its exact"
          + " id, UTC target, scheduled or overdue state, and session-local delivery mode.";
  static final String DELETE_DESCRIPTION =
      "Delete one active reminder in the current session by the exact id returned by"
          + " schedule_create or schedule_list. Unknown or already-finished ids return deleted"
          + " false.";

  private static final String CREATE_PARAMETERS =
      "{\"type\":\"object\",\"properties\":{"
          + "\"prompt\":{\"type\":\"string\",\"description\":\"Reminder content to present when the"
          + " target becomes due.\"},"
          + "\"after_seconds\":{\"type\":\"number\",\"description\":\"Positive safe-integer delay in"
          + " seconds.\"},"
          + "\"at\":{\"description\":\"Absolute target as strict offset RFC 3339 or local date/time"
          + " with optional IANA zone.\",\"oneOf\":[{\"type\":\"string\"},{\"type\":\"object\","
          + "\"properties\":{\"date\":{\"type\":\"string\"},\"time\":{\"type\":\"string\"},"
          + "\"time_zone\":{\"type\":\"string\"}},\"required\":[\"date\",\"time\"],"
          + "\"additionalProperties\":false}]}},"
          + "\"required\":[\"prompt\"]}";
  private static final String LIST_PARAMETERS = "{\"type\":\"object\",\"properties\":{}}";
  private static final String DELETE_PARAMETERS =
      "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"description\":\"Exact"
          + " session-local schedule id.\"}},\"required\":[\"id\"]}";

  private static final String STRING = "{\"type\":\"string\"}";
  private static final String AFTER_VIEW =
      "{\"type\":\"object\",\"properties\":{\"id\":" + STRING + ",\"kind\":{\"const\":\"after\"},"
          + "\"prompt\":" + STRING + ",\"afterSeconds\":{\"type\":\"integer\"},\"scheduledAt\":"
          + STRING + ",\"state\":{\"enum\":[\"scheduled\",\"overdue\"]},"
          + "\"deliveryMode\":{\"const\":\"session-local\"}},\"required\":[\"id\",\"kind\","
          + "\"prompt\",\"afterSeconds\",\"scheduledAt\",\"state\",\"deliveryMode\"],"
          + "\"additionalProperties\":false}";
  private static final String AT_VIEW =
      "{\"type\":\"object\",\"properties\":{\"id\":" + STRING + ",\"kind\":{\"const\":\"at\"},"
          + "\"prompt\":" + STRING + ",\"scheduledAt\":" + STRING + ",\"state\":{\"enum\":"
          + "[\"scheduled\",\"overdue\"]},\"deliveryMode\":{\"const\":\"session-local\"}},"
          + "\"required\":[\"id\",\"kind\",\"prompt\",\"scheduledAt\",\"state\",\"deliveryMode\"],"
          + "\"additionalProperties\":false}";
  private static final String BASIC_ERROR =
      "{\"type\":\"object\",\"properties\":{\"code\":{\"enum\":[\"invalid_prompt\","
          + "\"invalid_selector\",\"invalid_rule\",\"invalid_time_zone\",\"not_future\","
          + "\"time_out_of_range\",\"corrupt_schedule_log\",\"internal_error\"]},\"message\":"
          + STRING + "},\"required\":[\"code\",\"message\"],\"additionalProperties\":false}";
  private static final String PERSISTENCE_ERROR =
      "{\"type\":\"object\",\"properties\":{\"code\":{\"const\":\"persistence_uncertain\"},"
          + "\"message\":" + STRING + ",\"operation\":{\"enum\":[\"create\",\"list\",\"delete\"]},"
          + "\"id\":" + STRING + "},\"required\":[\"code\",\"message\",\"operation\"],"
          + "\"additionalProperties\":false}";
  private static final String ZONE_ERROR =
      "{\"type\":\"object\",\"properties\":{\"code\":{\"const\":"
          + "\"timezone_confirmation_required\"},\"message\":" + STRING + ",\"sessionTimeZone\":"
          + STRING + ",\"clientTimeZones\":{\"type\":\"array\",\"items\":" + STRING + "}},"
          + "\"required\":[\"code\",\"message\",\"sessionTimeZone\",\"clientTimeZones\"],"
          + "\"additionalProperties\":false}";
  private static final String DELETED =
      "{\"type\":\"object\",\"properties\":{\"id\":" + STRING + ",\"deleted\":{\"const\":true}},"
          + "\"required\":[\"id\",\"deleted\"],\"additionalProperties\":false}";
  private static final String NOT_FOUND =
      "{\"type\":\"object\",\"properties\":{\"id\":" + STRING + ",\"deleted\":{\"const\":false},"
          + "\"code\":{\"const\":\"schedule_not_found\"}},\"required\":[\"id\",\"deleted\",\"code\"],"
          + "\"additionalProperties\":false}";

  static final String CREATE_OUTPUT =
      "{\"oneOf\":[" + AFTER_VIEW + "," + AT_VIEW + "," + BASIC_ERROR + "," + ZONE_ERROR + ","
          + PERSISTENCE_ERROR + "]}";
  static final String LIST_OUTPUT =
      "{\"oneOf\":[{\"type\":\"array\",\"items\":{\"oneOf\":[" + AFTER_VIEW + "," + AT_VIEW
          + "]}}," + BASIC_ERROR + "," + PERSISTENCE_ERROR + "]}";
  static final String DELETE_OUTPUT =
      "{\"oneOf\":[" + DELETED + "," + NOT_FOUND + "," + BASIC_ERROR + "," + PERSISTENCE_ERROR
          + "]}";

  private ToolCatalog() {}

  /**
   * The three definitions, in registration order.
   *
   * @param create the create body
   * @param list the list body
   * @param delete the delete body
   * @return {@code schedule_create}, {@code schedule_list}, {@code schedule_delete}
   */
  public static List<ToolDefinition> definitions(ToolBody create, ToolBody list, ToolBody delete) {
    return List.of(
        ToolDefinition.builder(CREATE)
            .description(CREATE_DESCRIPTION)
            .parameters(Json.parse(CREATE_PARAMETERS))
            .output(Json.parse(CREATE_OUTPUT))
            .renderer(ToolCatalog::render)
            .presentCall(args -> card("Create reminder", "other", args.path("prompt")))
            .body(create)
            .build(),
        ToolDefinition.builder(LIST)
            .description(LIST_DESCRIPTION)
            .parameters(Json.parse(LIST_PARAMETERS))
            .output(Json.parse(LIST_OUTPUT))
            .renderer(ToolCatalog::render)
            .presentCall(args -> Optional.of(new PresentationCard("List reminders", "read", Optional.empty())))
            .body(list)
            .build(),
        ToolDefinition.builder(DELETE)
            .description(DELETE_DESCRIPTION)
            .parameters(Json.parse(DELETE_PARAMETERS))
            .output(Json.parse(DELETE_OUTPUT))
            .renderer(ToolCatalog::render)
            .presentCall(args -> card("Delete reminder", "other", args.path("id")))
            .body(delete)
            .build());
  }

  private static Optional<PresentationCard> card(String title, String kind, JsonNode raw) {
    if (!raw.isTextual()) {
      return Optional.empty();
    }
    return Optional.of(new PresentationCard(title, kind, Optional.of(raw)));
  }

  /**
   * One text block with the value's canonical JSON text.
   *
   * @param value the tool value
   * @return the content
   */
  static List<ContentBlock> render(JsonNode value) {
    StringBuilder out = new StringBuilder(sizeHint(value));
    EcmaJson.append(out, value);
    return List.of(new ContentBlock(out.toString()));
  }

  /**
   * About the rendered length of a value: for a list, 192 characters a view (its fixed text is 150
   * at most; the rest is for its id and prompt). Sizing the buffer once spares a long list the
   * copies of its doublings; measuring every row's id and prompt would build them once more (the
   * rows of a list are lazy, see {@code RecordMembers}).
   */
  private static int sizeHint(JsonNode value) {
    return value.isArray() ? (int) Math.min(2 + 192L * value.size(), Integer.MAX_VALUE - 16) : 64;
  }
}
