package dev.horae.examples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.testkit.time.ManualTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The assistant in scripted mode (no API key): it says so first, sets a reminder, notes, and the reminder wakes it. */
class AssistantTest {

  @Test
  void withoutAnApiKeyTheScriptedModelAnswersAndTheReminderWakesTheAgent(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    ManualTime time = new ManualTime(Instant.parse("2026-12-01T09:00:00Z"));
    try (Assistant assistant = Assistant.start(Map.of(), dir, out, time, time)) {
      assertThat(assistant.ask("Remind me in 30 seconds to stretch.")).startsWith("OK, the reminder is set: {\"id\":\"schedule-1\"");
      assertThat(assistant.ask("note buy milk")).isEqualTo("Done: noted (1 notes)");
      assertThat(assistant.ask("What time is it?")).startsWith("Time sampled while preparing turn 3, step 1: 2026-12-01T");
      CompletableFuture<Void> delivered = assistant.remindersDelivered();
      assertThat(delivered).isNotDone();
      time.advance(Duration.ofSeconds(30));
      delivered.get(30, TimeUnit.SECONDS);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed.lines().findFirst().orElse("")).startsWith("Horae LangChain4j assistant: no OPENAI_API_KEY set, so a scripted model answers");
    assertThat(printed).contains("[reminder] Reminder: stretch");
  }
}
