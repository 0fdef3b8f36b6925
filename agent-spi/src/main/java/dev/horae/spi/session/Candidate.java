package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One event proposed for an atomic multi-event append ({@link Session#appendAll}).
 *
 * @param type event type
 * @param data payload; snapshotted at append
 * @param options envelope options
 */
public record Candidate(String type, JsonNode data, AppendOptions options) {

  /**
   * A log-only candidate.
   *
   * @param type event type
   * @param data payload
   * @return the candidate
   */
  public static Candidate logOnly(String type, JsonNode data) {
    return new Candidate(type, data, AppendOptions.LOG_ONLY);
  }
}
