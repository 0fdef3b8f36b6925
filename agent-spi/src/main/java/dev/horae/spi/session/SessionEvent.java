package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One committed event of a session log (host contract §3.1).
 *
 * @param seq position in the log, contiguous from 0
 * @param type event type, e.g. {@code user/message} or {@code schedule/change}
 * @param time wall-clock time of the append in epoch milliseconds (not monotonic)
 * @param data immutable payload snapshot; treat as read-only
 * @param surfaceOp effect on the model-visible surface; empty for log-only events
 * @param sourceEventSeqs seqs a derived event was built from; empty when not derived
 */
public record SessionEvent(
    long seq,
    String type,
    long time,
    JsonNode data,
    Optional<SurfaceOp> surfaceOp,
    List<Long> sourceEventSeqs) {

  /**
   * Validates and freezes the event.
   *
   * @throws IllegalArgumentException when {@code seq} is negative or {@code type} is blank
   */
  public SessionEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(surfaceOp, "surfaceOp");
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be >= 0, got " + seq);
    }
    if (type.isBlank()) {
      throw new IllegalArgumentException("event type must not be blank");
    }
    sourceEventSeqs = List.copyOf(sourceEventSeqs);
  }

  /**
   * A log-only event with no surface op and no sources.
   *
   * @param seq position in the log
   * @param type event type
   * @param time epoch milliseconds
   * @param data payload (not copied; pass a snapshot)
   * @return the event
   */
  public static SessionEvent of(long seq, String type, long time, JsonNode data) {
    return new SessionEvent(seq, type, time, data, Optional.empty(), List.of());
  }
}
