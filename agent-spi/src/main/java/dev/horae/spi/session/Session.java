package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A live session and its append-only event log (host contract §3).
 *
 * <p>Appends are synchronous and linearizable per session. Validators and observers run on the
 * appending thread, inside the append, and must not append to the same session.
 */
public interface Session {

  /**
   * The session id.
   *
   * @return the id
   */
  String id();

  /**
   * The immutable header.
   *
   * @return the header
   */
  SessionHeader header();

  /**
   * An immutable snapshot of the whole raw log, including events shadowed by compaction and the
   * inherited fork prefix.
   *
   * @return the events, contiguous from seq 0
   */
  List<SessionEvent> events();

  /**
   * An immutable snapshot of the raw log from {@code fromSeq} on, without copying the prefix.
   *
   * @param fromSeq first seq wanted (0 for all)
   * @return the events with {@code seq >= fromSeq}
   */
  List<SessionEvent> eventsFrom(long fromSeq);

  /**
   * The current log length (the seq the next append gets).
   *
   * @return the number of events
   */
  long length();

  /**
   * Appends one log-only event.
   *
   * @param type event type
   * @param data payload; snapshotted
   * @return the committed event
   * @throws RuntimeException the vetoing validator's exception; the log is unchanged
   */
  default SessionEvent append(String type, JsonNode data) {
    return append(type, data, AppendOptions.LOG_ONLY);
  }

  /**
   * Appends one event.
   *
   * @param type event type
   * @param data payload; snapshotted
   * @param options envelope options
   * @return the committed event
   * @throws RuntimeException the vetoing validator's exception; the log is unchanged
   * @throws IllegalStateException when called from a validator or observer of this session, or
   *     when the session is no longer live
   */
  SessionEvent append(String type, JsonNode data, AppendOptions options);

  /**
   * Appends several events atomically: every validator accepts every candidate (each sees the
   * earlier candidates), then all are added with contiguous seqs, or none is.
   *
   * @param candidates the events, in order
   * @return the committed events
   * @throws RuntimeException the vetoing validator's exception; the log is unchanged
   */
  List<SessionEvent> appendAll(List<Candidate> candidates);
}
