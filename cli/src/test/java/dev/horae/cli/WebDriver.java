package dev.horae.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A headless Chromium driven through ChromeDriver with the W3C WebDriver HTTP protocol, spoken
 * directly with the JDK HttpClient: new session, navigate, find, click, text, screenshot.
 */
final class WebDriver implements AutoCloseable {

  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  /** The key of a web element reference (WebDriver §12). */
  private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

  private final Process driver;
  private final URI base;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String session;

  private WebDriver(Process driver, URI base, String session) {
    this.driver = driver;
    this.base = base;
    this.session = session;
  }

  /** Starts ChromeDriver and a headless browser with a fresh profile in {@code profile}. */
  static WebDriver start(Path profile, Path log) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Process p = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    URI base = URI.create("http://127.0.0.1:" + port + "/");
    HttpClient http = HttpClient.newHttpClient();
    try {
      // ChromeDriver takes a moment to listen; bounded: 200 × 100 ms
      boolean ready = false;
      for (int i = 0; i < 200 && !ready; i++) {
        try {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("status")).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
          ready = Json.parse(r.body()).path("value").path("ready").asBoolean();
        } catch (IOException notYet) {
          ready = false;
        }
        if (!ready) {
          Thread.sleep(100);
        }
      }
      if (!ready) {
        throw new IllegalStateException("chromedriver did not become ready; see " + log);
      }
      ObjectNode options = Json.mapper().createObjectNode().put("binary", CHROMIUM.toString());
      var args = options.putArray("args");
      for (String a : List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
          "--window-size=1280,860", "--user-data-dir=" + profile)) {
        args.add(a);
      }
      ObjectNode caps = Json.mapper().createObjectNode();
      caps.putObject("capabilities").putObject("alwaysMatch").put("browserName", "chrome").set("goog:chromeOptions", options);
      JsonNode created = call(http, "POST", base.resolve("session"), caps);
      return new WebDriver(p, base, created.path("sessionId").asText());
    } catch (Exception | Error e) {
      p.destroy();
      throw e;
    }
  }

  private static JsonNode call(HttpClient http, String method, URI uri, JsonNode body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json");
    b = method.equals("GET") ? b.GET() : method.equals("DELETE") ? b.DELETE()
        : b.POST(HttpRequest.BodyPublishers.ofString(EcmaJson.write(body)));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode value = Json.parse(r.body()).path("value");
    if (r.statusCode() != 200) {
      throw new WebDriverError(value.path("error").asText(), method + " " + uri.getPath() + ": " + value.path("message").asText());
    }
    return value;
  }

  /** A WebDriver error response ({@code no such element}, …). */
  static final class WebDriverError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String code;

    WebDriverError(String code, String message) {
      super(code + ": " + message);
      this.code = code;
    }
  }

  private JsonNode command(String method, String path, JsonNode body) throws Exception {
    return call(http, method, base.resolve("session/" + session + "/" + path), body);
  }

  private JsonNode command(String method, String path) throws Exception {
    return command(method, path, Json.mapper().createObjectNode());
  }

  void navigate(URI url) throws Exception {
    command("POST", "url", Json.mapper().createObjectNode().put("url", url.toString()));
  }

  Optional<String> find(String css) throws Exception {
    try {
      JsonNode e = command("POST", "element", Json.mapper().createObjectNode().put("using", "css selector").put("value", css));
      return Optional.of(e.path(ELEMENT).asText());
    } catch (WebDriverError e) {
      if (e.code.equals("no such element")) {
        return Optional.empty();
      }
      throw e;
    }
  }

  void click(String element) throws Exception {
    command("POST", "element/" + element + "/click");
  }

  void type(String element, String text) throws Exception {
    command("POST", "element/" + element + "/value", Json.mapper().createObjectNode().put("text", text));
  }

  String value(String element) throws Exception {
    return command("GET", "element/" + element + "/property/value").asText();
  }

  String text(String element) throws Exception {
    return command("GET", "element/" + element + "/text").asText();
  }

  /**
   * Waits, bounded (20 s in 100 ms polls: the page polls the console every 2 s), until the element
   * {@code css} exists and its text satisfies {@code done}; returns that text.
   */
  String awaitText(String css, Predicate<String> done) throws Exception {
    String last = "(no element)";
    for (int i = 0; i < 200; i++) {
      Optional<String> e = find(css);
      if (e.isPresent()) {
        try {
          last = text(e.get());
          if (done.test(last)) {
            return last;
          }
        } catch (WebDriverError e2) {
          if (!e2.code.equals("stale element reference")) {
            throw e2;
          }
          // the page re-rendered the element between find and text; look again
          last = e2.getMessage();
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError(css + " never got there; last: " + last);
  }

  void screenshot(Path png) throws Exception {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Files.write(png, Base64.getDecoder().decode(command("GET", "screenshot").asText()));
  }

  @Override
  public void close() {
    try {
      call(http, "DELETE", base.resolve("session/" + session), Json.mapper().createObjectNode());
    } catch (Exception e) {
      // the browser is going away anyway: the driver's process ends below
    } finally {
      driver.destroy();
      try {
        if (!driver.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          driver.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        driver.destroyForcibly();
      }
    }
  }
}
