package dev.horae.console;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request as the console sees it, whatever server received it: an adapter ({@code horae
 * console}'s JDK {@code HttpServer}, the starter's servlet) fills it in and hands it to {@link
 * Console#handle}.
 *
 * @param method the method, upper case
 * @param path the path below the console's root, starting with {@code /} ({@code /}, {@code
 *     /api/sessions}); still percent-encoded
 * @param rawQuery the query string as sent, or null
 * @param base the console's root as the browser addresses it, ending with {@code /} ({@code /}
 *     for {@code horae console}, {@code /horae/} for the starter's default mount): the page's links,
 *     the token cookie's path and redirects are made from it
 * @param scheme {@code http} or {@code https}, as the request arrived (an approve's {@code Origin}
 *     must name it)
 * @param peerLoopback whether the connection came from a loopback address: the socket's peer, not
 *     what a forwarding header claims
 * @param headers the request headers; names are matched without regard to case
 * @param body opens the request body
 */
public record ConsoleRequest(String method, String path, @Nullable String rawQuery, String base, String scheme,
    boolean peerLoopback, Map<String, List<String>> headers, Body body) {

  /** Opens the request body; read at most once. */
  @FunctionalInterface
  public interface Body {

    /**
     * Opens the body.
     *
     * @return its bytes
     * @throws IOException when it cannot be read
     */
    InputStream open() throws IOException;
  }

  /**
   * Checks and copies the parts.
   *
   * @throws IllegalArgumentException when {@code path} does not start with {@code /} or {@code base}
   *     does not both start and end with one
   */
  public ConsoleRequest {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("the console's request path must start with /, got " + path);
    }
    if (!base.startsWith("/") || !base.endsWith("/")) {
      throw new IllegalArgumentException("the console's base must start and end with /, got " + base);
    }
    TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((name, values) -> copy.merge(name, List.copyOf(values),
        (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList()));
    headers = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * The first value of a header.
   *
   * @param name the header name, in any case
   * @return the value, or null when the request has none
   */
  public @Nullable String header(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * Every value of a header.
   *
   * @param name the header name, in any case
   * @return the values, empty when the request has none
   */
  public List<String> headerValues(String name) {
    return headers.getOrDefault(name, List.of());
  }

  /**
   * A query parameter, decoded.
   *
   * @param name the parameter
   * @return its first value ({@code ""} for a bare name), or empty when absent
   */
  public Optional<String> query(String name) {
    String raw = rawQuery;
    if (raw == null) {
      return Optional.empty();
    }
    for (String pair : raw.split("&", -1)) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (key.equals(name)) {
        return Optional.of(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }
}
