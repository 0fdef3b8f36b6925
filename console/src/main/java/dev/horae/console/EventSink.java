package dev.horae.console;

/**
 * The open response of an event stream ({@code GET /api/events}), as its server adapter writes it:
 * the console calls it from its own threads, one call at a time.
 */
public interface EventSink {

  /**
   * Writes text to the stream and flushes it to the browser.
   *
   * @param text one or more complete Server-Sent Events
   * @return false when the page has gone (the stream cannot be written any more)
   */
  boolean write(String text);

  /** Ends the response; the console writes nothing more to it. */
  void end();
}
