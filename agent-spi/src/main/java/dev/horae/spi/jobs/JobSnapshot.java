package dev.horae.spi.jobs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The full internal record of a job, a fresh immutable value on every call (jobs spec §2.2).
 *
 * @param id job id
 * @param kind producer family
 * @param label one-line model-facing label
 * @param outputLimitBytes UTF-8 cap of complete model-facing reads, kill results and notices
 * @param ownerSession the owner's session id; empty for an unowned job
 * @param status current status
 * @param detail producer detail, present from settlement on
 * @param startedAt epoch milliseconds at registration
 * @param finishedAt epoch milliseconds at settlement, present exactly for terminal statuses
 * @param reported whether the model already learned (or no longer needs to learn) the job's end
 */
public record JobSnapshot(
    JobId id,
    String kind,
    String label,
    OptionalLong outputLimitBytes,
    Optional<String> ownerSession,
    JobStatus status,
    Optional<String> detail,
    long startedAt,
    OptionalLong finishedAt,
    boolean reported) {

  /** Checks presence of every member. */
  public JobSnapshot {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(outputLimitBytes, "outputLimitBytes");
    Objects.requireNonNull(ownerSession, "ownerSession");
    Objects.requireNonNull(status, "status");
    detail = detail.filter(d -> !d.isEmpty());
    Objects.requireNonNull(finishedAt, "finishedAt");
  }

  /**
   * Drops the members the model must not see.
   *
   * @return the public view
   */
  public PublicJobSnapshot toPublic() {
    return new PublicJobSnapshot(id, kind, label, status, detail, startedAt, finishedAt);
  }

  /**
   * Writes the JSON object of the spec, keys in spec order, absent members omitted.
   *
   * @return a fresh JSON object
   */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("id", id.value());
    node.put("kind", kind);
    node.put("label", label);
    outputLimitBytes.ifPresent(l -> node.put("outputLimitBytes", l));
    ownerSession.ifPresent(s -> node.put("ownerSession", s));
    node.put("status", status.wire());
    detail.ifPresent(d -> node.put("detail", d));
    node.put("startedAt", startedAt);
    finishedAt.ifPresent(f -> node.put("finishedAt", f));
    node.put("reported", reported);
    return node;
  }
}
