package dev.horae.spi.model;

/**
 * Where a streaming model hands its partial text while a step runs; the engine records each
 * piece as an {@code assistant/chunk} event. A model that does not stream never calls it.
 */
@FunctionalInterface
public interface StreamSink {

  /** A sink that drops every piece. */
  StreamSink NONE = text -> { };

  /**
   * One piece of streamed assistant text, in order.
   *
   * @param text the piece (not empty)
   */
  void text(String text);
}
