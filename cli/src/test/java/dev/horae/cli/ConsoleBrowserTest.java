package dev.horae.cli;

import static dev.horae.cli.Fixture.SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.cli.console.WebConsole;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.FileSessionStore;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console in a real browser: headless Chromium, driven through ChromeDriver, opens the console
 * over the {@link Fixture} store, sees the parked {@code deploy} call, clicks Approve, and the
 * store shows the tool performed once and the run ended. Screenshots land in {@code target/}.
 * Skips when ChromeDriver is not installed ({@code apt-get install chromium chromium-driver}).
 */
@Tag("slow")
class ConsoleBrowserTest {

  static final Path SCREENSHOT = Path.of("target", "console-screenshot.png");
  static final Path APPROVED = Path.of("target", "console-approved.png");

  @Test
  void aPersonApprovesTheParkedCallInTheBrowserAndTheToolRunsOnce(@TempDir Path dir, @TempDir Path profile) throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(WebDriver.CHROMEDRIVER) && Files.isExecutable(WebDriver.CHROMIUM),
        "no " + WebDriver.CHROMEDRIVER + " or " + WebDriver.CHROMIUM
            + ": install them (apt-get install -y chromium chromium-driver) to run the browser test");
    Fixture.write(HoraeRuntime.builder().dataDir(dir));
    App.DEPLOYS.set(0);
    int before = events(dir).size();
    try (StoreAccess store = StoreAccess.files(dir);
        WebConsole console = WebConsole.start(new StoreBackend(store, Fixture.CLI_CLOCK, Setups.Deploy::new, 60,
            (message, cause) -> { }), InetAddress.getLoopbackAddress(), 0, Optional.empty());
        WebDriver browser = WebDriver.start(profile, Path.of("target", "chromedriver.log"))) {
      browser.navigate(console.uri());
      String card = browser.awaitText(".card[data-run=\"ops-1/turn-6\"]", t -> t.contains("deploy"));
      assertThat(card).contains("ops-1/turn-6").contains("toolPermission").contains("{\"env\":\"prod\"}").contains("none");
      assertThat(browser.awaitText("#awaiting-count", t -> !t.isEmpty())).isEqualTo("1");
      browser.screenshot(SCREENSHOT);
      String reason = browser.find(".card[data-run=\"ops-1/turn-6\"] input").orElseThrow();
      browser.type(reason, "typed during a poll");
      // the page reloads its view on every change the event stream announces and stamps #status each
      // time: a second session appearing in the store is such a change, and the card (and what was
      // typed) outlives the reload
      String stamp = browser.awaitText("#status", t -> t.startsWith("live · updated"));
      try (FileSessionStore other = FileSessionStore.open(dir)) {
        other.persist(new SessionHeader(SessionHeader.CURRENT_VERSION, "another-session", 0, Optional.empty(),
            Optional.empty(), 0, Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty()),
            List.of(SessionEvent.of(0, "user/message", 0, Json.parse("{\"text\":\"hello\"}"))))
            .toCompletableFuture().join();
      }
      browser.awaitText("#status", t -> t.startsWith("live · updated") && !t.equals(stamp));
      assertThat(browser.value(browser.find(".card[data-run=\"ops-1/turn-6\"] input").orElseThrow())).isEqualTo("typed during a poll");
      assertThat(events(dir)).hasSize(before);
      assertThat(App.DEPLOYS.get()).isZero();

      browser.click(browser.find(".card[data-run=\"ops-1/turn-6\"] button.approve").orElseThrow());
      String result = browser.awaitText("#answer-result", t -> t.startsWith("approved") || t.contains(":"));
      assertThat(result).isEqualTo("approved ops-1/turn-6: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)");
      browser.awaitText("#awaiting-note", t -> t.equals("No call is waiting for a person."));
      browser.screenshot(APPROVED);

      // through the store: the tool ran exactly once and the turn (the run) ended
      assertThat(App.DEPLOYS.get()).isEqualTo(1);
      List<SessionEvent> log = events(dir);
      assertThat(log.stream().filter(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy")))
          .singleElement().satisfies(e -> assertThat(e.data().path("isError").asBoolean()).isFalse());
      assertThat(log.get(log.size() - 1).type()).isEqualTo("turn/end");
      assertThat(log.get(log.size() - 1).data().path("turn").asInt()).isEqualTo(6);
      assertThat(Fixture.cli("--data-dir", dir.toString(), "--json", "runs", "--awaiting").json()).isEmpty();

      // the session's timeline shows the answered gate and the ended turn
      browser.navigate(console.uri().resolve("/#session/ops-1"));
      String timeline = browser.awaitText("#timeline", t -> t.contains("turn 6 ended"));
      assertThat(timeline).contains("gate: run ops-1/turn-6 awaiting").contains("result of deploy (call-4)");
      browser.screenshot(Path.of("target", "console-timeline.png"));
      browser.navigate(console.uri().resolve("/#reminders"));
      assertThat(browser.awaitText("#reminders-body", t -> t.contains("join the review"))).contains("schedule-2");
      assertThat(browser.find("#due-chart svg rect.bar")).isPresent();
      browser.screenshot(Path.of("target", "console-reminders.png"));
    }
    assertThat(SCREENSHOT).isNotEmptyFile();
  }

  private static List<SessionEvent> events(Path dir) {
    return FileSessionStore.peek(dir, SESSION).orElseThrow().events();
  }
}
