package dev.horae.store.internal.frame;

import dev.horae.spi.session.SessionEvent;
import java.util.List;

/** What one stored line turned out to be. */
public sealed interface LineResult permits LineResult.Good, LineResult.BadFrame, LineResult.SeqGap {

  /**
   * A well-framed line whose events continue the log.
   *
   * @param events the decoded events, contiguous from the expected seq
   */
  record Good(List<SessionEvent> events) implements LineResult {
    /**
     * Freezes the events.
     *
     * @param events the decoded events
     */
    public Good {
      events = List.copyOf(events);
    }
  }

  /**
   * A line whose frame is broken (no checksum, checksum mismatch, unparsable or mistyped JSON).
   * As the last line of a file it is a torn write; anywhere else it is corruption.
   *
   * @param why what is wrong, for the error text
   */
  record BadFrame(String why) implements LineResult {}

  /**
   * A line with a valid checksum whose seqs do not continue the log. A torn write cannot produce
   * it, so it is corruption wherever it is.
   *
   * @param expected the seq the event had to carry
   * @param found the seq it carries
   */
  record SeqGap(long expected, long found) implements LineResult {}
}
