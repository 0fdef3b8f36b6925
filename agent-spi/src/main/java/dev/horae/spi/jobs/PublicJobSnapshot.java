package dev.horae.spi.jobs;

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
