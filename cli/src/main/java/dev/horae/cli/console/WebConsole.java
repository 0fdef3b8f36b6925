package dev.horae.cli.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.horae.cli.ExitCode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.Json;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The web console: a JDK {@link HttpServer} serving one page with its CSS and JS from the jar and
 * the JSON endpoints of a {@link ConsoleBackend}. Live updates are Server-Sent Events: {@code GET
 * /api/events} is a stream on which the console pushes {@code change} whenever the sessions or the
 * parked calls changed (it looks every watch interval, on the injected timers, and only while a
 * stream is open); the page reloads its view on each, and falls back to polling while the stream
 * is down.
 *
 * <p>Access (docs/operations.md, "Web console"): bound to a loopback address unless told otherwise,
 * and then only with an access token, which every request must carry (the {@code horae_token}
 * cookie the page gets from {@code /?token=T}, or {@code Authorization: Bearer T}). On a loopback
 * binding the {@code Host} header must name a loopback host, so a page of another site that
 * rebinds its DNS name to 127.0.0.1 is refused. Approve and deny are POST only, with a JSON body,
 * the per-process CSRF token of the page in {@code X-Horae-CSRF}, and an {@code Origin} equal to
 * the console's own: a cross-site page can neither read the token nor send the header.
 */
public final class WebConsole implements AutoCloseable {

  /** The port {@code horae console} listens on unless {@code --port} says otherwise. */
  public static final int DEFAULT_PORT = 8620;
  /** The header that carries the page's CSRF token on approve and deny. */
  public static final String CSRF_HEADER = "X-Horae-CSRF";
  /** The cookie that carries the access token once the page was opened with {@code ?token=}. */
  public static final String TOKEN_COOKIE = "horae_token";
  /** How often {@code horae console} looks for changes to push to its event streams. */
  public static final Duration DEFAULT_WATCH = Duration.ofSeconds(2);

  private static final String RESOURCES = "/dev/horae/cli/console/";
  private static final int MAX_BODY = 64 * 1024;
  private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final ConsoleBackend backend;
  private final HttpServer server;
  private final ExecutorService executor;
  private final boolean loopback;
  private final @Nullable String token;
  private final String csrf;
  private final Timers timers;
  private final @Nullable SystemTime ownedTimers;
  private final Duration watch;
  private final Set<EventStream> streams = ConcurrentHashMap.newKeySet();
  /** Guarded by {@code this}: the watch timer, and what the streams were last told. */
  private @Nullable Cancellable watching;
  private @Nullable Digest told;
  private boolean closed;

  private WebConsole(ConsoleBackend backend, HttpServer server, ExecutorService executor, boolean loopback,
      @Nullable String token, Timers timers, @Nullable SystemTime ownedTimers, Duration watch) {
    this.backend = backend;
    this.server = server;
    this.executor = executor;
    this.loopback = loopback;
    this.token = token;
    this.timers = timers;
    this.ownedTimers = ownedTimers;
    this.watch = watch;
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }

  /**
   * Starts serving.
   *
   * @param backend what the console shows and does
   * @param bind the address to listen on
   * @param port the port; 0 picks a free one
   * @param token the access token every request must carry; required unless {@code bind} is a
   *     loopback address
   * @return the running console
   * @throws IllegalArgumentException when {@code bind} is not a loopback address and no token is given,
   *     or the token is blank
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static WebConsole start(ConsoleBackend backend, InetAddress bind, int port, Optional<String> token) {
    SystemTime system = new SystemTime();
    try {
      return start(backend, bind, port, token, system, system, DEFAULT_WATCH);
    } catch (RuntimeException e) {
      system.close();
      throw e;
    }
  }

  /**
   * Starts serving, looking for changes to push on the given timers (a test drives them by hand).
   *
   * @param backend what the console shows and does
   * @param bind the address to listen on
   * @param port the port; 0 picks a free one
   * @param token the access token every request must carry; required unless {@code bind} is a
   *     loopback address
   * @param timers the timers that pace the event streams' change checks
   * @param watch how often the streams' change check runs; positive
   * @return the running console
   * @throws IllegalArgumentException as {@link #start(ConsoleBackend, InetAddress, int, Optional)},
   *     or when {@code watch} is not positive
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static WebConsole start(ConsoleBackend backend, InetAddress bind, int port, Optional<String> token,
      Timers timers, Duration watch) {
    return start(backend, bind, port, token, timers, null, watch);
  }

  private static WebConsole start(ConsoleBackend backend, InetAddress bind, int port, Optional<String> token,
      Timers timers, @Nullable SystemTime owned, Duration watch) {
    if (watch.isNegative() || watch.isZero()) {
      throw new IllegalArgumentException("the console's watch interval must be positive, got " + watch);
    }
    boolean loopback = bind.isLoopbackAddress();
    if (token.isPresent() && token.get().isBlank()) {
      throw new IllegalArgumentException("the console's access token is blank");
    }
    if (!loopback && token.isEmpty()) {
      throw new IllegalArgumentException("the console binds " + bind.getHostAddress()
          + ", which is not a loopback address: give --token T, which every request must then carry");
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(bind, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
    }
    // answers run a turn and may take seconds; reads go on meanwhile
    ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "horae-console");
      t.setDaemon(true);
      return t;
    });
    WebConsole console = new WebConsole(backend, server, executor, loopback, token.orElse(null), timers, owned, watch);
    server.setExecutor(executor);
    server.createContext("/", console::handle);
    server.start();
    return console;
  }

  /**
   * Where the console listens.
   *
   * @return {@code http://ADDRESS:PORT/}
   */
  public URI uri() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/");
  }

  /**
   * The CSRF token this process embeds in the page.
   *
   * @return the token
   */
  public String csrfToken() {
    return csrf;
  }

  /**
   * Stops serving at once; an answer being given runs on for up to 5 s, so its turn settles in the
   * store even though its response is lost (the page then says the answer may or may not have landed).
   */
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
    for (EventStream stream : List.copyOf(streams)) {
      stream.end();
    }
    server.stop(0);
    SystemTime owned = ownedTimers;
    if (owned != null) {
      owned.close();
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      executor.shutdownNow();
    }
  }

  // ---- requests --------------------------------------------------------------------------------

  /** A refusal the console answers with a JSON error. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    Refusal(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    boolean adopted = false;
    try {
      Headers h = ex.getResponseHeaders();
      h.set("X-Content-Type-Options", "nosniff");
      h.set("X-Frame-Options", "DENY");
      h.set("Referrer-Policy", "no-referrer");
      h.set("Cache-Control", "no-store");
      h.set("Content-Security-Policy", CSP);
      try {
        checkHost(ex);
        adopted = route(ex);
      } catch (Refusal r) {
        error(ex, r.status, r.code, r.getMessage(), null);
      } catch (ConsoleFailure f) {
        error(ex, status(f.exitCode()), code(f.exitCode()), f.getMessage(), f.outcome());
      } catch (RuntimeException e) {
        error(ex, 500, "internal", "the console failed: " + e, null);
      }
    } finally {
      // an event stream stays open after its handler returns: the watch writes to it
      if (!adopted) {
        ex.close();
      }
    }
  }

  /** Answers a request; true when it became an event stream, which the console now owns. */
  private boolean route(HttpExchange ex) throws IOException, Refusal {
    String path = ex.getRequestURI().getRawPath();
    String method = ex.getRequestMethod();
    boolean answer = path.equals("/api/approve") || path.equals("/api/deny");
    if (path.equals("/") && token != null) {
      // the page opened with ?token=T: keep it in a cookie, and drop it from the address bar
      Optional<String> given = query(ex, "token");
      if (given.isPresent()) {
        if (!same(given.get(), token)) {
          throw new Refusal(401, "unauthorized", "wrong access token");
        }
        ex.getResponseHeaders().add("Set-Cookie", TOKEN_COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
        ex.getResponseHeaders().set("Location", "/");
        ex.sendResponseHeaders(303, -1);
        return false;
      }
    }
    checkToken(ex);
    if (answer) {
      if (!method.equals("POST")) {
        ex.getResponseHeaders().set("Allow", "POST");
        throw new Refusal(405, "methodNotAllowed", path + " takes POST only");
      }
      checkCrossSite(ex);
      JsonNode body = body(ex);
      String runId = body.path("runId").asText("");
      if (runId.isBlank()) {
        throw new Refusal(400, "usage", "the body needs runId");
      }
      boolean approve = path.equals("/api/approve");
      String reason = body.path("reason").asText("");
      if (!approve && reason.isBlank()) {
        throw new Refusal(400, "usage", "deny needs a reason (the model is told why)");
      }
      json(ex, 200, backend.answer(runId, approve, reason));
      return false;
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      ex.getResponseHeaders().set("Allow", "GET, HEAD");
      throw new Refusal(405, "methodNotAllowed", path + " takes GET only");
    }
    if (path.equals("/api/events")) {
      return events(ex);
    }
    switch (path) {
      case "/", "/index.html" -> page(ex);
      case "/console.css" -> resource(ex, "console.css", "text/css; charset=utf-8");
      case "/console.js" -> resource(ex, "console.js", "text/javascript; charset=utf-8");
      case "/api/sessions" -> json(ex, 200, backend.sessions());
      case "/api/timeline" -> json(ex, 200, backend.timeline(query(ex, "session")
          .orElseThrow(() -> new Refusal(400, "usage", "/api/timeline needs ?session=ID"))));
      case "/api/reminders" -> json(ex, 200, backend.reminders());
      case "/api/awaiting" -> json(ex, 200, backend.awaiting());
      default -> throw new Refusal(404, "notFound", "no page " + path);
    }
    return false;
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

  /** Opens an event stream: {@code hello} with the state now, then {@code change} on each change. */
  private boolean events(HttpExchange ex) throws IOException {
    if (ex.getRequestMethod().equals("HEAD")) {
      send(ex, 200, "text/event-stream; charset=utf-8", new byte[0]);
      return false;
    }
    Digest now = digest();
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.sendResponseHeaders(200, 0);
    EventStream stream = new EventStream(ex);
    // the page retries a dropped stream after 2 s, and polls meanwhile
    if (!stream.write("retry: 2000\n" + event("hello", now, List.of()))) {
      return true;
    }
    synchronized (this) {
      if (closed) {
        stream.end();
        return true;
      }
      streams.add(stream);
      if (told == null) {
        told = now;
      }
      if (watching == null) {
        arm();
      }
    }
    return true;
  }

  /** Caller holds {@code this}. */
  private void arm() {
    watching = timers.schedule(watch, () -> {
      try {
        executor.execute(this::check);
      } catch (RejectedExecutionException e) {
        // closing
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
    for (EventStream stream : List.copyOf(streams)) {
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

  /** One open {@code text/event-stream} response. */
  private static final class EventStream {
    private final HttpExchange ex;
    private final OutputStream out;
    private boolean ended;

    EventStream(HttpExchange ex) {
      this.ex = ex;
      this.out = ex.getResponseBody();
    }

    /** Writes and flushes; false (and the stream ended) when the page has gone. */
    synchronized boolean write(String text) {
      if (ended) {
        return false;
      }
      try {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        end();
        return false;
      }
    }

    synchronized void end() {
      if (!ended) {
        ended = true;
        ex.close();
      }
    }
  }

  /** On loopback, the Host must be a loopback name: a rebound DNS name of another site is refused. */
  private void checkHost(HttpExchange ex) throws Refusal {
    String host = ex.getRequestHeaders().getFirst("Host");
    if (host == null) {
      throw new Refusal(400, "badHost", "the request has no Host header");
    }
    if (!loopback) {
      return;
    }
    String name = hostName(host).toLowerCase(Locale.ROOT);
    if (!(name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]"))) {
      throw new Refusal(403, "badHost", "Host " + host + " is not a loopback name; open the console at " + uri());
    }
  }

  private static String hostName(String host) {
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      return close < 0 ? host : host.substring(0, close + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  private void checkToken(HttpExchange ex) throws Refusal {
    String t = token;
    if (t == null) {
      return;
    }
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    if (auth != null && auth.startsWith("Bearer ") && same(auth.substring("Bearer ".length()), t)) {
      return;
    }
    for (String cookies : ex.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
      for (String c : cookies.split(";", -1)) {
        String kv = c.trim();
        if (kv.startsWith(TOKEN_COOKIE + "=") && same(kv.substring(TOKEN_COOKIE.length() + 1), t)) {
          return;
        }
      }
    }
    throw new Refusal(401, "unauthorized", "this console needs its access token: open /?token=T once, "
        + "or send Authorization: Bearer T");
  }

  /** A POST that answers must come from the console's own page: its Origin and its CSRF token. */
  private void checkCrossSite(HttpExchange ex) throws Refusal {
    String origin = ex.getRequestHeaders().getFirst("Origin");
    String host = ex.getRequestHeaders().getFirst("Host");
    if (origin == null) {
      throw new Refusal(403, "crossSite", "approve and deny need an Origin header (the console's page sends it)");
    }
    if (!origin.equalsIgnoreCase("http://" + host)) {
      throw new Refusal(403, "crossSite", "Origin " + origin + " is not this console's (http://" + host + "); nothing was written");
    }
    String given = ex.getRequestHeaders().getFirst(CSRF_HEADER);
    if (given == null || !same(given, csrf)) {
      throw new Refusal(403, "csrf", (given == null ? "missing " : "wrong ") + CSRF_HEADER
          + " header: reload the console's page; nothing was written");
    }
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new Refusal(415, "usage", "approve and deny take a JSON body (Content-Type: application/json)");
    }
  }

  private static boolean same(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonNode body(HttpExchange ex) throws IOException, Refusal {
    byte[] bytes;
    try (InputStream in = ex.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY + 1);
    }
    if (bytes.length > MAX_BODY) {
      throw new Refusal(413, "usage", "the body exceeds " + MAX_BODY + " bytes");
    }
    try {
      JsonNode node = Json.parse(new String(bytes, StandardCharsets.UTF_8));
      if (!node.isObject()) {
        throw new Refusal(400, "usage", "the body must be a JSON object");
      }
      return node;
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "usage", "the body is not JSON: " + e.getMessage());
    }
  }

  private static Optional<String> query(HttpExchange ex, String name) {
    String raw = ex.getRequestURI().getRawQuery();
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

  // ---- responses -------------------------------------------------------------------------------

  private void page(HttpExchange ex) throws IOException {
    String html = new String(read("index.html"), StandardCharsets.UTF_8).replace("{{csrf}}", csrf);
    send(ex, 200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
  }

  private static void resource(HttpExchange ex, String name, String type) throws IOException {
    send(ex, 200, type, read(name));
  }

  private static byte[] read(String name) throws IOException {
    try (InputStream in = WebConsole.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IOException("the jar lacks the console resource " + RESOURCES + name);
      }
      return in.readAllBytes();
    }
  }

  private static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
    send(ex, status, "application/json; charset=utf-8", EcmaJson.write(body).getBytes(StandardCharsets.UTF_8));
  }

  private static void error(HttpExchange ex, int status, String code, @Nullable String message, @Nullable JsonNode outcome)
      throws IOException {
    ObjectNode o = Json.mapper().createObjectNode().put("error", code).put("message", message == null ? code : message);
    if (outcome != null) {
      o.set("outcome", outcome);
    }
    json(ex, status, o);
  }

  private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** The HTTP status of a command line exit status (docs/operations.md, "Web console"). */
  static int status(int exitCode) {
    return switch (exitCode) {
      case ExitCode.USAGE -> 400;
      case ExitCode.NOT_FOUND -> 404;
      case ExitCode.HELD, ExitCode.REJECTED -> 409;
      case ExitCode.NEEDS_SETUP -> 501;
      case ExitCode.UNREADABLE -> 503;
      default -> 500;
    };
  }

  /** The error code the JSON names, one per exit status. */
  static String code(int exitCode) {
    return switch (exitCode) {
      case ExitCode.USAGE -> "usage";
      case ExitCode.NOT_FOUND -> "notFound";
      case ExitCode.HELD -> "held";
      case ExitCode.REJECTED -> "rejected";
      case ExitCode.NEEDS_SETUP -> "needsSetup";
      case ExitCode.UNREADABLE -> "unreadable";
      case ExitCode.UNCERTAIN -> "uncertain";
      default -> "failed";
    };
  }
}
