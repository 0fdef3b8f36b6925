package dev.horae.console;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

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

  /**
   * A sink over an open response body, as both server adapters have one.
   *
   * @param out the response body; every write is flushed at once
   * @param end ends the response (closes the exchange, completes the asynchronous request)
   * @return the sink
   */
  static EventSink over(OutputStream out, Runnable end) {
    return new EventSink() {
      @Override
      public boolean write(String text) {
        try {
          out.write(text.getBytes(StandardCharsets.UTF_8));
          out.flush();
          return true;
        } catch (IOException | IllegalStateException e) {
          // the page went, or the server already ended the response
          return false;
        }
      }

      @Override
      public void end() {
        end.run();
      }
    };
  }
}
