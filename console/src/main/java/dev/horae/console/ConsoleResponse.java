package dev.horae.console;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The console's answer to one request, for its server adapter to send: a status, headers and a
 * body, or for {@code GET /api/events} an event stream the adapter opens once it has sent the
 * status and headers ({@link #events()}).
 */
public final class ConsoleResponse {

  private final int status;
  private final Map<String, String> headers;
  private final byte[] body;
  private final @Nullable Consumer<EventSink> events;

  ConsoleResponse(int status, Map<String, String> headers, byte[] body, @Nullable Consumer<EventSink> events) {
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.body = body.clone();
    this.events = events;
  }

  /**
   * The HTTP status.
   *
   * @return the status
   */
  public int status() {
    return status;
  }

  /**
   * The response headers, one value each, in the order to send them.
   *
   * @return the headers
   */
  public Map<String, String> headers() {
    return headers;
  }

  /**
   * The body; empty for a HEAD request, a redirect and an event stream.
   *
   * @return a copy of the bytes
   */
  public byte[] body() {
    return body.clone();
  }

  /**
   * For an event stream: starts it on the adapter's open response, which the console then owns
   * (it writes the first events at once, and ends the sink when the page goes or the console
   * closes). The adapter must keep the response open after its handler returns.
   *
   * @return the starter, or null when this is an ordinary response
   */
  public @Nullable Consumer<EventSink> events() {
    return events;
  }
}
