package dev.horae.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import dev.horae.spring.boot.HoraeRuntimeCustomizer;
import dev.horae.testkit.time.ManualTime;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The assistant without an API key: the scripted model, a reminder set and delivered unprompted. */
class AssistantApplicationTest {

  static final ManualTime TIME = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
  /** Completed once a timer of 30 seconds (the reminder's) is armed. */
  static final CompletableFuture<Void> REMINDER_ARMED = new CompletableFuture<>();

  /** The test's clock for the runtime, through the starter's customizer seam; its timers tell the test the reminder's is armed. */
  @Configuration(proxyBeanMethods = false)
  static class ManualClock {
    @Bean
    HoraeRuntimeCustomizer manualClock() {
      Timers signalling = (delay, task) -> {
        Cancellable c = TIME.schedule(delay, task);
        if (delay.equals(Duration.ofSeconds(30))) {
          REMINDER_ARMED.complete(null);
        }
        return c;
      };
      return b -> b.clock(TIME).timers(signalling).processZone(() -> java.time.ZoneOffset.UTC);
    }
  }

  @Test
  void scriptedModeSaysSoFirstAndDeliversTheReminder(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CompletableFuture<Void> unprompted = new CompletableFuture<>();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8) {
      @Override
      public void println(String line) {
        super.println(line);
        if (line.contains("(unprompted)")) {
          unprompted.complete(null);
        }
      }
    };
    ConfigurableApplicationContext context = AssistantApplication.start(out, Map.of(),
        new String[] {"--horae.data-dir=" + dir}, ManualClock.class);
    try {
      AssistantApplication.converse(context,
          new BufferedReader(new StringReader("hello\nremind me in 30 seconds to stretch\n")), out);
      REMINDER_ARMED.get(20, TimeUnit.SECONDS);
      TIME.advance(Duration.ofSeconds(30));
      unprompted.get(20, TimeUnit.SECONDS);                   // the reminder's turn printed its reply
    } finally {
      context.close();
    }
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines.get(0)).startsWith("Horae Spring Boot assistant: no OPENAI_API_KEY, so a scripted model answers");
    assertThat(lines).anyMatch(l -> l.startsWith("assistant> You said \"hello\". Time sampled while preparing turn 1, step 1: 2026-12-01T09:00:00+00:00[UTC]"));
    assertThat(lines).anyMatch(l -> l.startsWith("assistant> Done. ({\"id\":\"schedule-1\""));
    assertThat(lines).contains("assistant (unprompted)> Reminder: stretch");
  }
}
