package dev.horae.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.cli.console.WebConsole;
import dev.horae.spi.session.Json;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The console's HTTP endpoints as the tests call them, with the JDK HttpClient. */
final class ConsoleClient {

  private final HttpClient http = HttpClient.newHttpClient();
  private final WebConsole console;

  ConsoleClient(WebConsole console) {
    this.console = console;
  }

  HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(console.uri().resolve(path)).timeout(Duration.ofSeconds(20));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  JsonNode getJson(String path) throws Exception {
    HttpResponse<String> r = get(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return Json.parse(r.body());
  }

  HttpResponse<String> post(String path, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(console.uri().resolve(path)).timeout(Duration.ofSeconds(40))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts an answer as the console's own page does: JSON, its Origin, its CSRF token. */
  HttpResponse<String> answer(String path, String body) throws Exception {
    return post(path, body, samePage(pageToken()));
  }

  /** The headers the console's own page sends with an answer. */
  String[] samePage(String csrf) {
    return new String[] {"Content-Type", "application/json", "Origin", origin(), WebConsole.CSRF_HEADER, csrf};
  }

  String origin() {
    String s = console.uri().toString();
    return s.substring(0, s.length() - 1);
  }

  /** The CSRF token as the page embeds it. */
  String pageToken() throws Exception {
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    Matcher m = Pattern.compile("<meta name=\"horae-csrf\" content=\"([^\"]+)\">").matcher(page.body());
    assertThat(m.find()).as("the page embeds the CSRF token").isTrue();
    return m.group(1);
  }

  /** Asserts a JSON refusal. */
  static void assertRefused(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(Json.parse(r.body()).path("error").asText()).isEqualTo(code);
    assertThat(Json.parse(r.body()).path("message").asText()).isNotBlank();
  }
}
