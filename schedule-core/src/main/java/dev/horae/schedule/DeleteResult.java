package dev.horae.schedule;

import dev.horae.spi.json.EcmaJson;
import java.util.Objects;

/**
 * The success value of {@code schedule_delete} (spec §4.2): {@code {id, deleted: true}} or
 * {@code {id, deleted: false, code: "schedule_not_found"}}.
 *
 * @param id the requested id
 * @param deleted whether a delete change was appended
 */
public record DeleteResult(String id, boolean deleted) {

  /** The non-error marker of a delete whose id is not active. */
  public static final String NOT_FOUND_CODE = "schedule_not_found";

  /**
   * Checks presence.
   *
   * @param id as described on the record
   * @param deleted as described on the record
   */
  public DeleteResult {
    Objects.requireNonNull(id, "id");
  }

  /**
   * The canonical JSON text.
   *
   * @return compact JSON text in spec member order
   */
  public String toJson() {
    StringBuilder out = new StringBuilder("{\"id\":");
    EcmaJson.appendString(out, id);
    if (deleted) {
      out.append(",\"deleted\":true}");
    } else {
      out.append(",\"deleted\":false,\"code\":\"").append(NOT_FOUND_CODE).append("\"}");
    }
    return out.toString();
  }
}
