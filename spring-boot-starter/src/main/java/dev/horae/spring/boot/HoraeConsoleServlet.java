package dev.horae.spring.boot;

import dev.horae.console.Console;
import dev.horae.console.ConsoleRequest;
import dev.horae.console.ConsoleResponse;
import dev.horae.console.EventSink;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * The web console mounted in a servlet web application: the console module's request routine
 * ({@link Console}) behind one servlet. It only translates requests and responses, and keeps an
 * event stream open as an asynchronous request; the routes and the access rules are the
 * console's (docs/operations.md, "The console in a Spring Boot application").
 *
 * <p>Whether a request is local is read from the container's own request, under every wrapper a
 * filter put around it: a filter that rewrites the remote address from {@code X-Forwarded-For}
 * (Spring's {@code ForwardedHeaderFilter}) cannot make a forwarded request look local, and the
 * forwarding headers it hides are still seen.
 */
public final class HoraeConsoleServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient Console console;
  private final transient ExecutorService checks;

  /**
   * A servlet over a console.
   *
   * @param console the console
   * @param checks the executor its change checks run on; shut down with the servlet
   */
  public HoraeConsoleServlet(Console console, ExecutorService checks) {
    this.console = console;
    this.checks = checks;
  }

  /**
   * The console's CSRF token, as its page embeds it.
   *
   * @return the token
   */
  public String csrfToken() {
    return console.csrfToken();
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    ServletRequest raw = req;
    while (raw instanceof ServletRequestWrapper w) {
      raw = w.getRequest();
    }
    HttpServletRequest container = raw instanceof HttpServletRequest h ? h : req;
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (String name : Collections.list(container.getHeaderNames())) {
      headers.put(name, Collections.list(container.getHeaders(name)));
    }
    String info = req.getPathInfo();
    String base = req.getContextPath() + req.getServletPath() + "/";
    ConsoleRequest request = new ConsoleRequest(req.getMethod(), info == null || info.isEmpty() ? "/" : info,
        req.getQueryString(), base, req.getScheme(), loopback(container.getRemoteAddr()), headers, req::getInputStream);
    ConsoleResponse response = console.handle(request);
    resp.setStatus(response.status());
    response.headers().forEach(resp::setHeader);
    Consumer<EventSink> events = response.events();
    if (events != null) {
      AsyncContext async = req.startAsync();
      // the stream lasts as long as the page is open; the console ends it
      async.setTimeout(0);
      resp.flushBuffer();
      events.accept(EventSink.over(resp.getOutputStream(), () -> {
        try {
          async.complete();
        } catch (IllegalStateException e) {
          // already completed by the container (the connection closed)
        }
      }));
      return;
    }
    byte[] body = response.body();
    resp.setContentLength(body.length);
    if (body.length > 0) {
      resp.getOutputStream().write(body);
    }
  }

  /**
   * Whether the container's peer address is a loopback one. Matched as text, never looked up: the
   * container gives a literal address, and anything else (a name a valve took from a header) is
   * not loopback.
   */
  private static boolean loopback(String address) {
    return address.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")
        || List.of("::1", "0:0:0:0:0:0:0:1", "[::1]", "[0:0:0:0:0:0:0:1]").contains(address);
  }

  /**
   * Ends every open event stream, and opens no more: called when the application begins to stop,
   * before the web server's graceful shutdown, which would otherwise wait for the open pages.
   */
  public void endStreams() {
    console.close();
  }

  @Override
  public void destroy() {
    console.close();
    checks.shutdownNow();
  }
}
