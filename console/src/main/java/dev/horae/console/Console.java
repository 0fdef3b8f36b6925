package dev.horae.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.Json;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The web console as a request routine, independent of the HTTP server: {@link #handle} takes a
 * {@link ConsoleRequest} and returns a {@link ConsoleResponse} — the page with its CSS and JS from
 * the jar, the JSON endpoints of a {@link ConsoleBackend}, or an event stream. The access rules
 * ({@link ConsoleAccess}) and the cross-site checks of approve and deny live here, so the adapters
 * of {@code horae console} (a JDK {@code HttpServer}) and of the Spring Boot starter (a servlet)
 * only translate requests and responses.
 *
 * <p>Live updates are Server-Sent Events: {@code GET api/events} is a stream on which the console
 * pushes {@code change} whenever the sessions or the parked calls changed (it looks every watch
 * interval, on the injected timers, and only while a stream is open); the page reloads its view on
 * each, and falls back to polling while the stream is down.
 *
 * <p>Approve and deny are POST only, with a JSON body, the per-console CSRF token of the page in
 * {@code X-Horae-CSRF}, and an {@code Origin} equal to the console's own ({@code scheme://Host}): a
 * cross-site page can neither read the token nor send the header. The access token does not stand
 * in for the CSRF token.
 */
public final class Console implements AutoCloseable {

  /** The header that carries the page's CSRF token on approve and deny. */
  public static final String CSRF_HEADER = "X-Horae-CSRF";
  /** How often a console looks for changes to push to its event streams unless told otherwise. */
  public static final Duration DEFAULT_WATCH = Duration.ofSeconds(2);

  private static final String RESOURCES = "/dev/horae/console/";
  private static final int MAX_BODY = 64 * 1024;
  private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final ConsoleBackend backend;
  private final ConsoleAccess access;
  private final String csrf;
  private final Timers timers;
  private final Duration watch;
  private final Executor checks;
  private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
  /** Guarded by {@code this}: the watch timer, and what the streams were last told. */
  private @Nullable Cancellable watching;
  private @Nullable Digest told;
  private boolean closed;

  private Console(ConsoleBackend backend, ConsoleAccess access, Timers timers, Duration watch, Executor checks) {
    this.backend = backend;
    this.access = access;
    this.timers = timers;
    this.watch = watch;
    this.checks = checks;
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /**
   * A console.
   *
   * @param backend what it shows and does
   * @param access who may use it
   * @param timers the timers that pace the event streams' change checks
   * @param watch how often the change check runs while a stream is open; positive
   * @param checks where the change checks run (they read the store, so not on a timer thread)
   * @return the console
   * @throws IllegalArgumentException when {@code watch} is not positive
   */
  public static Console create(ConsoleBackend backend, ConsoleAccess access, Timers timers, Duration watch,
      Executor checks) {
    if (watch.isNegative() || watch.isZero()) {
      throw new IllegalArgumentException("the console's watch interval must be positive, got " + watch);
    }
    return new Console(backend, access, timers, watch, checks);
  }

  /**
   * The CSRF token this console embeds in its page.
   *
   * @return the token
   */
  public String csrfToken() {
    return csrf;
  }

  /** Stops the change checks and ends every open event stream. */
  @Override
  public void close() {
    Cancellable w;
    synchronized (this) {
      closed = true;
      w = watching;
      watching = null;
    }
    if (w != null) {
      w.cancel();
    }
    for (Stream stream : List.copyOf(streams)) {
      stream.end();
    }
  }

  // ---- requests --------------------------------------------------------------------------------

  /** A refusal the console answers with a JSON error. */
  static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;
    final Map<String, String> headers;

    Refusal(int status, String code, String message) {
      this(status, code, message, Map.of());
    }

    Refusal(int status, String code, String message, Map<String, String> headers) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
      this.headers = headers;
    }
  }

  /**
   * Answers one request. Bad input is answered with a JSON error ({@code {error, message}}) and
   * writes nothing; a failure of the backend keeps its kind's status and message.
   *
   * @param r the request
   * @return the response to send
   */
  public ConsoleResponse handle(ConsoleRequest r) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("X-Content-Type-Options", "nosniff");
    h.put("X-Frame-Options", "DENY");
    h.put("Referrer-Policy", "no-referrer");
    h.put("Cache-Control", "no-store");
    h.put("Content-Security-Policy", CSP);
    try {
      return route(r, h);
    } catch (Refusal f) {
      h.putAll(f.headers);
      return error(r, h, f.status, f.code, f.getMessage(), null);
    } catch (ConsoleFailure f) {
      return error(r, h, f.kind().status(), f.kind().code(), f.getMessage(), f.outcome());
    } catch (IOException | RuntimeException e) {
      return error(r, h, 500, "internal", "the console failed: " + e, null);
    }
  }

  private ConsoleResponse route(ConsoleRequest r, Map<String, String> h) throws IOException, Refusal {
    String path = r.path();
    String method = r.method();
    if (path.equals("/") && access.hasToken()) {
      // the page opened with ?token=T: keep it in a cookie, and drop it from the address bar
      Optional<String> given = r.query("token");
      if (given.isPresent()) {
        if (!access.isToken(given.get())) {
          throw new Refusal(401, "unauthorized", "wrong access token");
        }
        String cookiePath = r.base().length() > 1 ? r.base().substring(0, r.base().length() - 1) : "/";
        h.put("Set-Cookie", ConsoleAccess.TOKEN_COOKIE + "=" + given.get() + "; Path=" + cookiePath
            + "; HttpOnly; SameSite=Strict");
        h.put("Location", r.base());
        return new ConsoleResponse(303, h, new byte[0], null);
      }
    }
    access.check(r);
    if (path.equals("/api/approve") || path.equals("/api/deny")) {
      if (!method.equals("POST")) {
        throw new Refusal(405, "methodNotAllowed", path + " takes POST only", Map.of("Allow", "POST"));
      }
      checkCrossSite(r);
      JsonNode body = body(r);
      String runId = body.path("runId").asText("");
      if (runId.isBlank()) {
        throw new Refusal(400, "usage", "the body needs runId");
      }
      boolean approve = path.equals("/api/approve");
      String reason = body.path("reason").asText("");
      if (!approve && reason.isBlank()) {
        throw new Refusal(400, "usage", "deny needs a reason (the model is told why)");
      }
      return json(r, h, 200, backend.answer(runId, approve, reason));
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      throw new Refusal(405, "methodNotAllowed", path + " takes GET only", Map.of("Allow", "GET, HEAD"));
    }
    return switch (path) {
      case "/", "/index.html" -> page(r, h);
      case "/console.css" -> send(r, h, 200, "text/css; charset=utf-8", read("console.css"));
      case "/console.js" -> send(r, h, 200, "text/javascript; charset=utf-8", read("console.js"));
      case "/api/sessions" -> json(r, h, 200, backend.sessions());
      case "/api/timeline" -> json(r, h, 200, backend.timeline(r.query("session")
          .orElseThrow(() -> new Refusal(400, "usage", "/api/timeline needs ?session=ID"))));
      case "/api/reminders" -> json(r, h, 200, backend.reminders());
      case "/api/awaiting" -> json(r, h, 200, backend.awaiting());
      case "/api/events" -> events(r, h);
      default -> throw new Refusal(404, "notFound", "no page " + path);
    };
  }

  /** A POST that answers must come from the console's own page: its Origin and its CSRF token. */
  private void checkCrossSite(ConsoleRequest r) throws Refusal {
    String origin = r.header("Origin");
    String own = r.scheme() + "://" + r.header("Host");
    if (origin == null) {
      throw new Refusal(403, "crossSite", "approve and deny need an Origin header (the console's page sends it)");
    }
    if (!origin.equalsIgnoreCase(own)) {
      throw new Refusal(403, "crossSite", "Origin " + origin + " is not this console's (" + own + "); nothing was written");
    }
    String given = r.header(CSRF_HEADER);
    if (given == null || !ConsoleAccess.same(given, csrf)) {
      throw new Refusal(403, "csrf", (given == null ? "missing " : "wrong ") + CSRF_HEADER
          + " header: reload the console's page; nothing was written");
    }
    String type = r.header("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new Refusal(415, "usage", "approve and deny take a JSON body (Content-Type: application/json)");
    }
  }

  private static JsonNode body(ConsoleRequest r) throws IOException, Refusal {
    byte[] bytes;
    try (InputStream in = r.body().open()) {
      bytes = in.readNBytes(MAX_BODY + 1);
    }
    if (bytes.length > MAX_BODY) {
      throw new Refusal(413, "usage", "the body exceeds " + MAX_BODY + " bytes");
    }
    JsonNode node;
    try {
      node = Json.parse(new String(bytes, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "usage", "the body is not JSON: " + e.getMessage());
    }
    if (!node.isObject()) {
      throw new Refusal(400, "usage", "the body must be a JSON object");
    }
    return node;
  }

  // ---- live updates ----------------------------------------------------------------------------

  /** What the streams compare: digests of the sessions list and of the parked calls. */
  private record Digest(String sessions, String awaiting, int awaitingCount) {}

  private Digest digest() {
    JsonNode awaiting = backend.awaiting();
    return new Digest(sha256(EcmaJson.write(backend.sessions())), sha256(EcmaJson.write(awaiting)),
        awaiting.path("awaiting").size());
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** An event stream: {@code hello} with the state now, then {@code change} on each change. */
  private ConsoleResponse events(ConsoleRequest r, Map<String, String> h) {
    h.put("Content-Type", "text/event-stream; charset=utf-8");
    if (r.method().equals("HEAD")) {
      return new ConsoleResponse(200, h, new byte[0], null);
    }
    // read before the status is sent, so a store that cannot be read is an error response
    Digest now = digest();
    Consumer<EventSink> start = sink -> open(new Stream(sink), now);
    return new ConsoleResponse(200, h, new byte[0], start);
  }

  private void open(Stream stream, Digest now) {
    // the page retries a dropped stream after 2 s, and polls meanwhile
    if (!stream.write("retry: 2000\n" + event("hello", now, List.of()))) {
      return;
    }
    synchronized (this) {
      if (closed) {
        stream.end();
        return;
      }
      streams.add(stream);
      if (told == null) {
        told = now;
      }
      if (watching == null) {
        arm();
      }
    }
  }

  /** Caller holds {@code this}. */
  private void arm() {
    watching = timers.schedule(watch, () -> {
      try {
        checks.execute(this::check);
      } catch (RejectedExecutionException e) {
        // the adapter is closing its executor: no stream is told anything more
      }
    });
  }

  /** One watch: tells every stream what changed since it was last told, then re-arms. */
  private void check() {
    Digest before;
    synchronized (this) {
      watching = null;
      if (closed || streams.isEmpty()) {
        // nobody listens: the store is not read again until a stream opens
        told = null;
        return;
      }
      before = told;
    }
    String message;
    try {
      Digest now = digest();
      List<String> changed = new ArrayList<>();
      if (before == null || !before.sessions().equals(now.sessions())) {
        changed.add("sessions");
      }
      if (before == null || !before.awaiting().equals(now.awaiting())) {
        changed.add("awaiting");
      }
      synchronized (this) {
        told = now;
      }
      // a comment line when nothing changed: it finds the streams whose page has gone
      message = changed.isEmpty() ? ":\n\n" : event("change", now, changed);
    } catch (RuntimeException e) {
      ObjectNode o = Json.mapper().createObjectNode().put("message", "the store cannot be read: " + e.getMessage());
      message = "event: trouble\ndata: " + EcmaJson.write(o) + "\n\n";
    }
    for (Stream stream : List.copyOf(streams)) {
      if (!stream.write(message)) {
        streams.remove(stream);
      }
    }
    synchronized (this) {
      if (!closed && watching == null) {
        arm();
      }
    }
  }

  private static String event(String name, Digest d, List<String> changed) {
    ObjectNode o = Json.mapper().createObjectNode().put("awaiting", d.awaitingCount());
    var list = o.putArray("changed");
    for (String c : changed) {
      list.add(c);
    }
    return "event: " + name + "\ndata: " + EcmaJson.write(o) + "\n\n";
  }

  /** One open stream: writes one at a time, and nothing once it ended. */
  private static final class Stream {
    private final EventSink sink;
    private boolean ended;

    Stream(EventSink sink) {
      this.sink = sink;
    }

    synchronized boolean write(String text) {
      if (ended) {
        return false;
      }
      if (!sink.write(text)) {
        end();
        return false;
      }
      return true;
    }

    synchronized void end() {
      if (!ended) {
        ended = true;
        sink.end();
      }
    }
  }

  // ---- responses -------------------------------------------------------------------------------

  private ConsoleResponse page(ConsoleRequest r, Map<String, String> h) throws IOException {
    String html = new String(read("index.html"), StandardCharsets.UTF_8).replace("{{csrf}}", csrf)
        .replace("{{base}}", attribute(r.base()));
    return send(r, h, 200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
  }

  /** The base as an HTML attribute value: it comes from the server's mapping, never from the page. */
  private static String attribute(String text) {
    return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("'", "&#39;");
  }

  private static byte[] read(String name) throws IOException {
    try (InputStream in = Console.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IOException("the jar lacks the console resource " + RESOURCES + name);
      }
      return in.readAllBytes();
    }
  }

  private static ConsoleResponse json(ConsoleRequest r, Map<String, String> h, int status, JsonNode body) {
    return send(r, h, status, "application/json; charset=utf-8", EcmaJson.write(body).getBytes(StandardCharsets.UTF_8));
  }

  private static ConsoleResponse error(ConsoleRequest r, Map<String, String> h, int status, String code,
      @Nullable String message, @Nullable JsonNode outcome) {
    ObjectNode o = Json.mapper().createObjectNode().put("error", code).put("message", message == null ? code : message);
    if (outcome != null) {
      o.set("outcome", outcome);
    }
    return json(r, h, status, o);
  }

  private static ConsoleResponse send(ConsoleRequest r, Map<String, String> h, int status, String type, byte[] body) {
    h.put("Content-Type", type);
    return new ConsoleResponse(status, h, r.method().equals("HEAD") ? new byte[0] : body, null);
  }
}
