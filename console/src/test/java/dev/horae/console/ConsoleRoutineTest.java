package dev.horae.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import dev.horae.testkit.time.ManualTime;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The request routine and its access rule, called directly: who gets in (a token, a local
 * request with a loopback Host, never a forwarded one), the mount path in the page, the cookie
 * and the redirect, and approve's cross-site checks — a refused answer never reaches the backend.
 */
class ConsoleRoutineTest {

  /** A backend that serves fixed documents and records the answers that reach it. */
  private static final class Recording implements ConsoleBackend {
    final List<String> answered = new ArrayList<>();

    @Override
    public JsonNode sessions() {
      return Json.parse("{\"sessions\":[],\"unreadable\":[]}");
    }

    @Override
    public JsonNode timeline(String session) {
      throw new ConsoleFailure(ConsoleFailure.Kind.NOT_FOUND, "no session " + session);
    }

    @Override
    public JsonNode reminders() {
      return Json.parse("{\"now\":\"2026-12-01T09:00:00Z\",\"scheduled\":[],\"dispatched\":[]}");
    }

    @Override
    public JsonNode awaiting() {
      return Json.parse("{\"canAnswer\":true,\"awaiting\":[]}");
    }

    @Override
    public JsonNode answer(String runId, boolean approve, String reason) {
      answered.add(runId);
      return Json.parse("{\"decision\":\"approved\"}");
    }
  }

  private final Recording backend = new Recording();
  private final ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));

  private Console console(Optional<String> token, boolean localWithoutToken) {
    return Console.create(backend, ConsoleAccess.of(token, localWithoutToken), time, Console.DEFAULT_WATCH, Runnable::run);
  }

  private static ConsoleRequest get(String path, @Nullable String query, boolean peerLoopback, String... headers) {
    return request("GET", path, query, peerLoopback, "", headers);
  }

  private static ConsoleRequest request(String method, String path, @Nullable String query, boolean peerLoopback,
      String body, String... headers) {
    Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.put("host", List.of("127.0.0.1:8080"));
    for (int i = 0; i < headers.length; i += 2) {
      h.put(headers[i], List.of(headers[i + 1]));
    }
    return new ConsoleRequest(method, path, query, "/ops/horae/", "http", peerLoopback, h,
        () -> new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
  }

  private static String error(ConsoleResponse r) {
    return Json.parse(new String(r.body(), StandardCharsets.UTF_8)).path("error").asText();
  }

  @Test
  void aLocalRequestNeedsNoTokenButALoopbackHostAndNoForwardingHeader() {
    Console c = console(Optional.empty(), true);
    assertThat(c.handle(get("/api/sessions", null, true)).status()).isEqualTo(200);
    ConsoleResponse rebound = c.handle(get("/api/sessions", null, true, "Host", "evil.example:8080"));
    assertThat(rebound.status()).isEqualTo(403);
    assertThat(error(rebound)).isEqualTo("badHost");
    for (String header : List.of("X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Host", "X-Forwarded-Proto")) {
      ConsoleResponse forwarded = c.handle(get("/api/sessions", null, true, header, "127.0.0.1"));
      assertThat(forwarded.status()).as(header).isEqualTo(403);
      assertThat(error(forwarded)).as(header).isEqualTo("notLocal");
    }
    ConsoleResponse remote = c.handle(get("/api/sessions", null, false));
    assertThat(remote.status()).isEqualTo(403);
    assertThat(error(remote)).isEqualTo("notLocal");
    assertThat(error(c.handle(request("GET", "/api/sessions", null, true, "", "host", "")))).isEqualTo("badHost");
  }

  @Test
  void aTokenLetsARemoteRequestInAndLocalOnesStillComeInWithoutIt() {
    Console c = console(Optional.of("s3cret"), true);
    assertThat(c.handle(get("/api/sessions", null, true)).status()).isEqualTo(200);
    assertThat(c.handle(get("/api/sessions", null, false)).status()).isEqualTo(401);
    assertThat(c.handle(get("/api/sessions", null, false, "Authorization", "Bearer nope")).status()).isEqualTo(401);
    assertThat(c.handle(get("/api/sessions", null, false, "Authorization", "Bearer s3cret")).status()).isEqualTo(200);
    assertThat(c.handle(get("/api/sessions", null, true, "X-Forwarded-For", "203.0.113.9", "Cookie",
        "a=b; horae_token=s3cret")).status()).isEqualTo(200);
    ConsoleResponse opened = c.handle(get("/", "token=s3cret", false));
    assertThat(opened.status()).isEqualTo(303);
    assertThat(opened.headers()).containsEntry("Location", "/ops/horae/")
        .containsEntry("Set-Cookie", "horae_token=s3cret; Path=/ops/horae; HttpOnly; SameSite=Strict");
    assertThat(c.handle(get("/", "token=wrong", false)).status()).isEqualTo(401);
    // with local access off, every request carries the token
    Console strict = console(Optional.of("s3cret"), false);
    assertThat(strict.handle(get("/api/sessions", null, true)).status()).isEqualTo(401);
    assertThatThrownBy(() -> ConsoleAccess.of(Optional.empty(), false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConsoleAccess.of(Optional.of(" "), true)).hasMessage("the console's access token is blank");
  }

  @Test
  void thePageAddressesItsAssetsAndEndpointsBelowTheMountPath() {
    Console c = console(Optional.empty(), true);
    ConsoleResponse page = c.handle(get("/", null, true));
    String html = new String(page.body(), StandardCharsets.UTF_8);
    assertThat(html).contains("href=\"/ops/horae/console.css\"").contains("src=\"/ops/horae/console.js\"")
        .contains("<meta name=\"horae-base\" content=\"/ops/horae/\">")
        .contains("<meta name=\"horae-csrf\" content=\"" + c.csrfToken() + "\">");
    assertThat(new String(c.handle(get("/console.js", null, true)).body(), StandardCharsets.UTF_8))
        .contains("BASE + 'api/awaiting'");
    assertThat(c.handle(request("HEAD", "/", null, true, "")).body()).isEmpty();
    assertThat(c.handle(get("/api/timeline", "session=x", true)).status()).isEqualTo(404);
    assertThatThrownBy(() -> get("api", null, true)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAnswerReachesTheBackendOnlyFromTheConsolesOwnPage() {
    Console c = console(Optional.empty(), true);
    String body = "{\"runId\":\"s/turn-1\"}";
    String csrf = c.csrfToken();
    assertThat(error(c.handle(request("POST", "/api/approve", null, true, body, "Content-Type", "application/json",
        "Origin", "http://127.0.0.1:8080")))).isEqualTo("csrf");
    assertThat(error(c.handle(request("POST", "/api/approve", null, true, body, "Content-Type", "application/json",
        "Origin", "http://evil.example", Console.CSRF_HEADER, csrf)))).isEqualTo("crossSite");
    assertThat(error(c.handle(request("POST", "/api/approve", null, true, body, "Content-Type", "text/plain",
        "Origin", "http://127.0.0.1:8080", Console.CSRF_HEADER, csrf)))).isEqualTo("usage");
    assertThat(c.handle(get("/api/approve", null, true)).headers()).containsEntry("Allow", "POST");
    assertThat(backend.answered).isEmpty();
    ConsoleResponse ok = c.handle(request("POST", "/api/approve", null, true, body, "Content-Type", "application/json",
        "Origin", "http://127.0.0.1:8080", Console.CSRF_HEADER, csrf));
    assertThat(ok.status()).isEqualTo(200);
    assertThat(backend.answered).containsExactly("s/turn-1");
  }
}
