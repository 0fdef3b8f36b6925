package dev.horae.spi.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the tools show the model about a job (jobs spec §2.2): no owner session, no reported bit,
 * no output cap.
 *
 * @param id job id
 * @param kind producer family
 * @param label one-line model-facing label
 * @param status current status
 * @param detail producer detail, present from settlement on
 * @param startedAt epoch milliseconds at registration
 * @param finishedAt epoch milliseconds at settlement, present exactly for terminal statuses
 */
public record PublicJobSnapshot(
    JobId id,
    String kind,
    String label,
    JobStatus status,
    Optional<String> detail,
    long startedAt,
    OptionalLong finishedAt) {

  /** Checks presence of every member. */
  public PublicJobSnapshot {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(status, "status");
    detail = detail.filter(d -> !d.isEmpty());
    Objects.requireNonNull(finishedAt, "finishedAt");
  }

  /**
   * Reads the JSON object written by {@link #toJson()}.
   *
   * @param json {@code {id, kind, label, status, detail?, startedAt, finishedAt?}}
   * @return the snapshot
   * @throws IllegalArgumentException when a member is missing or mistyped, or the id or status is
   *     invalid
   */
  public static PublicJobSnapshot fromJson(JsonNode json) {
    for (String key : new String[] {"id", "kind", "label", "status"}) {
      if (!json.path(key).isTextual()) {
        throw new IllegalArgumentException("public job snapshot needs a string \"" + key + "\"");
      }
    }
    if (!json.path("startedAt").isIntegralNumber()) {
      throw new IllegalArgumentException("public job snapshot needs an integer \"startedAt\"");
    }
    JsonNode detail = json.path("detail");
    JsonNode finished = json.path("finishedAt");
    return new PublicJobSnapshot(
        JobId.parse(json.get("id").asText()),
        json.get("kind").asText(),
        json.get("label").asText(),
        JobStatus.fromWire(json.get("status").asText()),
        detail.isTextual() ? Optional.of(detail.asText()) : Optional.empty(),
        json.get("startedAt").asLong(),
        finished.isIntegralNumber() ? OptionalLong.of(finished.asLong()) : OptionalLong.empty());
  }

  /**
   * Writes the closed JSON object {@code {id, kind, label, status, detail?, startedAt,
   * finishedAt?}} in that order.
   *
   * @return a fresh JSON object
   */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("id", id.value());
    node.put("kind", kind);
    node.put("label", label);
    node.put("status", status.wire());
    detail.ifPresent(d -> node.put("detail", d));
    node.put("startedAt", startedAt);
    finishedAt.ifPresent(f -> node.put("finishedAt", f));
    return node;
  }
}
