package dev.horae.spi.session;

/**
 * How an event affects the model-visible surface (host contract §3.1): an ordinary appended
 * message, or a compaction replacement of a range of earlier events.
 */
public sealed interface SurfaceOp permits SurfaceOp.Append, SurfaceOp.Replace {

  /** The surface op of an ordinary model-visible message. */
  Append APPEND = new Append();

  /** The event is appended to the model-visible history. */
  record Append() implements SurfaceOp {}

  /**
   * The event replaces the model-visible events with seqs {@code start..end} (inclusive); the raw
   * events stay in the log.
   *
   * @param start first replaced seq
   * @param end last replaced seq
   */
  record Replace(long start, long end) implements SurfaceOp {
    /**
     * Validates the range.
     *
     * @param start first replaced seq
     * @param end last replaced seq
     * @throws IllegalArgumentException when the range is empty or negative
     */
    public Replace {
      if (start < 0 || end < start) {
        throw new IllegalArgumentException("replace range must satisfy 0 <= start <= end, got " + start + ".." + end);
      }
    }
  }
}
