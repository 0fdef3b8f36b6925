package dev.horae.cli.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.horae.console.Console;
import dev.horae.console.ConsoleAccess;
import dev.horae.console.ConsoleBackend;
import dev.horae.console.ConsoleRequest;
import dev.horae.console.ConsoleResponse;
import dev.horae.console.EventSink;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The web console {@code horae console} serves: the console module's request routine ({@link
 * Console}) behind a JDK {@link HttpServer}, at the root of its own port. This class only binds,
 * translates requests and responses and keeps event streams open; the routes, the access rules
 * and the cross-site checks are {@link Console}'s and {@link ConsoleAccess}'s.
 *
 * <p>Access (docs/operations.md, "Web console"): bound to a loopback address unless told otherwise,
 * and then only with an access token, which every request must carry (the {@code horae_token}
 * cookie the page gets from {@code /?token=T}, or {@code Authorization: Bearer T}). Without a
 * token, a request is let in only when it is local and its {@code Host} names a loopback host, so a
 * page of another site that rebinds its DNS name to 127.0.0.1 is refused.
 */
public final class WebConsole implements AutoCloseable {

  /** The port {@code horae console} listens on unless {@code --port} says otherwise. */
  public static final int DEFAULT_PORT = 8620;
  /** The header that carries the page's CSRF token on approve and deny. */
  public static final String CSRF_HEADER = Console.CSRF_HEADER;
  /** The cookie that carries the access token once the page was opened with {@code ?token=}. */
  public static final String TOKEN_COOKIE = ConsoleAccess.TOKEN_COOKIE;
  /** How often {@code horae console} looks for changes to push to its event streams. */
  public static final Duration DEFAULT_WATCH = Console.DEFAULT_WATCH;

  private final Console console;
  private final HttpServer server;
  private final ExecutorService executor;
  private final @Nullable SystemTime ownedTimers;

  private WebConsole(Console console, HttpServer server, ExecutorService executor, @Nullable SystemTime ownedTimers) {
    this.console = console;
    this.server = server;
    this.executor = executor;
    this.ownedTimers = ownedTimers;
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
    if (!bind.isLoopbackAddress() && token.isEmpty()) {
      throw new IllegalArgumentException("the console binds " + bind.getHostAddress()
          + ", which is not a loopback address: give --token T, which every request must then carry");
    }
    // with a token every request carries it, even from this machine; without one only local ones come in
    ConsoleAccess access = ConsoleAccess.of(token, token.isEmpty());
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
    Console console = Console.create(backend, access, timers, watch, executor);
    WebConsole web = new WebConsole(console, server, executor, owned);
    server.setExecutor(executor);
    server.createContext("/", web::handle);
    server.start();
    return web;
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
    return console.csrfToken();
  }

  /**
   * Stops serving at once; an answer being given runs on for up to 5 s, so its turn settles in the
   * store even though its response is lost (the page then says the answer may or may not have landed).
   */
  @Override
  public void close() {
    console.close();
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

  private void handle(HttpExchange ex) throws IOException {
    boolean adopted = false;
    try {
      URI uri = ex.getRequestURI();
      ConsoleRequest request = new ConsoleRequest(ex.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), "/",
          "http", ex.getRemoteAddress().getAddress().isLoopbackAddress(), ex.getRequestHeaders(), ex::getRequestBody);
      ConsoleResponse response = console.handle(request);
      response.headers().forEach((name, value) -> ex.getResponseHeaders().set(name, value));
      Consumer<EventSink> events = response.events();
      if (events != null) {
        ex.sendResponseHeaders(response.status(), 0);
        adopted = true;
        events.accept(EventSink.over(ex.getResponseBody(), ex::close));
        return;
      }
      byte[] body = response.body();
      ex.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      }
    } finally {
      // an event stream stays open after its handler returns: the console writes to it
      if (!adopted) {
        ex.close();
      }
    }
  }
}
