package dev.horae.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.gate.GateOutcome;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.log.LogWaits;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The console the starter mounts, on a real embedded Tomcat on a random port, spoken to over
 * loopback with the JDK HttpClient: page and assets under the configured path, a parked {@code
 * requireConfirmation} call listed, the live stream's hello, approve refused without the CSRF
 * header (log unchanged) and performed once with it, and a forwarded request refused without the
 * token. A context runner shows the console is off unless enabled, and only in a servlet web
 * application.
 */
class HoraeConsoleWebTest {

  /** How often the application's {@code deploy} tool really ran. */
  static final AtomicInteger DEPLOYS = new AtomicInteger();

  /** The application: a scripted model that calls {@code deploy}, and a gate that holds it for a person. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Application {
    @Bean
    ModelPort model() {
      return new ScriptedModel().thenCall("deploy", Json.parse("{\"env\":\"prod\"}")).thenText("deployed to prod");
    }

    @Bean
    ToolGate confirmDeploys() {
      return (call, state) -> CompletableFuture.completedFuture(call.toolId().equals("deploy")
          ? GateOutcome.requireConfirmation("confirm-" + call.callId()) : GateOutcome.allow());
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int deploys(List<SessionEvent> log) {
    return (int) log.stream().filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy"))
        .count();
  }

  @Test
  void theMountedConsoleListsTheParkedCallAndApprovesItOnceOnlyFromItsOwnPage() throws Exception {
    DEPLOYS.set(0);
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "server.address=127.0.0.1", "horae.console.enabled=true",
            "horae.console.path=/ops/horae/", "horae.console.token=s3cret", "horae.time-context.enabled=false")
        .run()) {
      HoraeRuntime horae = context.getBean(HoraeRuntime.class);
      horae.tools().register(ToolDefinition.builder("deploy").description("Deploys to an environment.")
          .body((args, exec) -> {
            DEPLOYS.incrementAndGet();
            return CompletableFuture.completedFuture(Json.parse("{\"deployed\":true}"));
          }).build());
      RuntimeAgent agent = horae.openAgent("ops-1", "UTC");
      horae.prompt(agent, "Deploy to prod.");
      LogWaits.until(horae, agent, log -> agent.parked());

      int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
      String origin = "http://127.0.0.1:" + port;
      URI root = URI.create(origin + "/ops/horae/");

      // the page and its assets, under the configured path (the trailing slash of the property dropped)
      HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(origin + "/ops/horae")));
      assertThat(page.statusCode()).isEqualTo(200);
      // Tomcat writes the content type without the space
      assertThat(page.headers().firstValue("Content-Type").orElseThrow().replace(" ", "")).isEqualTo("text/html;charset=utf-8");
      assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'none'");
      assertThat(page.body()).contains("src=\"/ops/horae/console.js\"").contains("href=\"/ops/horae/console.css\"")
          .contains("<meta name=\"horae-base\" content=\"/ops/horae/\">");
      Matcher m = Pattern.compile("<meta name=\"horae-csrf\" content=\"([^\"]+)\">").matcher(page.body());
      assertThat(m.find()).isTrue();
      String csrf = m.group(1);
      assertThat(send(HttpRequest.newBuilder(root.resolve("console.js"))).body()).contains("X-Horae-CSRF");
      assertThat(send(HttpRequest.newBuilder(root.resolve("console.css"))).headers().firstValue("Content-Type")
          .orElseThrow().replace(" ", "")).isEqualTo("text/css;charset=utf-8");
      assertThat(send(HttpRequest.newBuilder(URI.create(origin + "/console.js"))).statusCode()).isEqualTo(404);

      // the parked call, as horae runs --awaiting lists it
      JsonNode awaiting = Json.parse(send(HttpRequest.newBuilder(root.resolve("api/awaiting"))).body());
      assertThat(awaiting.path("canAnswer").asBoolean()).isTrue();
      assertThat(awaiting.path("awaiting")).singleElement().satisfies(a -> {
        assertThat(a.path("runId").asText()).isEqualTo("ops-1/turn-1");
        assertThat(a.path("tool").asText()).isEqualTo("deploy");
        assertThat(a.path("reason").asText()).isEqualTo("toolPermission");
        assertThat(a.path("arguments")).isEqualTo(Json.parse("{\"env\":\"prod\"}"));
      });
      assertThat(Json.parse(send(HttpRequest.newBuilder(root.resolve("api/sessions"))).body()).path("sessions")
          .get(0).path("state").asText()).isEqualTo("parked turn-1");

      // the live stream opens with its hello
      HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(root.resolve("api/events")).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertThat(stream.statusCode()).isEqualTo(200);
      assertThat(stream.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
        assertThat(lines.readLine()).isEqualTo("retry: 2000");
        assertThat(lines.readLine()).isEqualTo("event: hello");
        assertThat(lines.readLine()).isEqualTo("data: {\"awaiting\":1,\"changed\":[]}");
      }

      // approve without the CSRF header: refused, nothing written, nothing run
      int before = agent.session().events().size();
      String body = "{\"runId\":\"ops-1/turn-1\"}";
      HttpResponse<String> noCsrf = send(HttpRequest.newBuilder(root.resolve("api/approve"))
          .header("Content-Type", "application/json").header("Origin", origin)
          .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(noCsrf.statusCode()).isEqualTo(403);
      assertThat(Json.parse(noCsrf.body()).path("error").asText()).isEqualTo("csrf");
      HttpResponse<String> foreign = send(HttpRequest.newBuilder(root.resolve("api/approve"))
          .header("Content-Type", "application/json").header("Origin", "http://evil.example").header("X-Horae-CSRF", csrf)
          .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(Json.parse(foreign.body()).path("error").asText()).isEqualTo("crossSite");
      assertThat(agent.session().events()).hasSize(before);
      assertThat(DEPLOYS).hasValue(0);

      // a forwarded request is not local, whatever address it names: it needs the token
      HttpResponse<String> forwarded = send(HttpRequest.newBuilder(root.resolve("api/awaiting"))
          .header("X-Forwarded-For", "127.0.0.1"));
      assertThat(forwarded.statusCode()).isEqualTo(401);
      assertThat(Json.parse(forwarded.body()).path("error").asText()).isEqualTo("unauthorized");
      assertThat(send(HttpRequest.newBuilder(root.resolve("api/awaiting")).header("X-Forwarded-For", "203.0.113.9")
          .header("Authorization", "Bearer s3cret")).statusCode()).isEqualTo(200);
      HttpResponse<String> opened = send(HttpRequest.newBuilder(URI.create(root + "?token=s3cret"))
          .header("X-Forwarded-For", "203.0.113.9"));
      assertThat(opened.statusCode()).isEqualTo(303);
      assertThat(opened.headers().firstValue("Location")).hasValue("/ops/horae/");
      assertThat(opened.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("horae_token=s3cret; Path=/ops/horae;");

      // with the page's CSRF token: the tool runs once and the run ends
      HttpResponse<String> approved = send(HttpRequest.newBuilder(root.resolve("api/approve"))
          .header("Content-Type", "application/json").header("Origin", origin).header("X-Horae-CSRF", csrf)
          .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
      JsonNode o = Json.parse(approved.body());
      assertThat(o.path("decision").asText()).isEqualTo("approved");
      assertThat(o.path("runState").asText()).isEqualTo("ended");
      assertThat(o.path("message").asText()).isEqualTo(
          "approved ops-1/turn-1: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)");
      assertThat(DEPLOYS).hasValue(1);
      List<SessionEvent> log = agent.session().events();
      assertThat(deploys(log)).isEqualTo(1);
      assertThat(log.get(log.size() - 1).type()).isEqualTo("turn/end");

      HttpResponse<String> again = send(HttpRequest.newBuilder(root.resolve("api/approve"))
          .header("Content-Type", "application/json").header("Origin", origin).header("X-Horae-CSRF", csrf)
          .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(again.statusCode()).isEqualTo(404);
      assertThat(DEPLOYS).hasValue(1);
      assertThat(Json.parse(send(HttpRequest.newBuilder(root.resolve("api/awaiting"))).body()).path("awaiting")).isEmpty();
    }
  }

  private final WebApplicationContextRunner web = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HoraeAutoConfiguration.class, HoraeConsoleAutoConfiguration.class))
      .withBean(ModelPort.class, ScriptedModel::new);

  @Test
  void theConsoleIsMountedOnlyWhenEnabledAndOnlyInAServletApplication() {
    web.run(context -> assertThat(context).doesNotHaveBean(HoraeConsoleAutoConfiguration.class)
        .doesNotHaveBean(ServletRegistrationBean.class));
    web.withPropertyValues("horae.console.enabled=true").run(context -> {
      assertThat(context).hasSingleBean(ServletRegistrationBean.class);
      ServletRegistrationBean<?> registration = context.getBean(ServletRegistrationBean.class);
      assertThat(registration.getUrlMappings()).containsExactly("/horae", "/horae/*");
      assertThat(registration.isAsyncSupported()).isTrue();
    });
    web.withPropertyValues("horae.console.enabled=true", "horae.console.path=horae").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("horae.console.path must be /"));
    web.withPropertyValues("horae.console.enabled=true", "horae.console.token= ").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("token is blank"));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HoraeAutoConfiguration.class, HoraeConsoleAutoConfiguration.class))
        .withBean(ModelPort.class, ScriptedModel::new).withPropertyValues("horae.console.enabled=true")
        .run(context -> assertThat(context).doesNotHaveBean(ServletRegistrationBean.class));
  }
}
