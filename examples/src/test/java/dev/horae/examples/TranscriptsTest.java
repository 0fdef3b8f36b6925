package dev.horae.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.examples.docs.Configs;
import dev.horae.examples.docs.JobsTour;
import dev.horae.examples.docs.ScheduleTour;
import dev.horae.examples.docs.TimeContextTour;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The capability pages paste what the model saw in each tour; every transcript header line they
 * show must be one the tour really produces today, so the pages cannot drift from the code.
 */
class TranscriptsTest {

  private static final Pattern TEXT_BLOCK = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern HEADER = Pattern.compile("^\\[(user message|tool call|tool result|log|assistant)[^\\]]*\\].*");
  private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();

  @Test
  void theSchedulePageShowsWhatTheScheduleTourProduces() throws Exception {
    assertPageMatches("schedule.md", ScheduleTour.run());
  }

  @Test
  void theTimeContextPageShowsTheReadingTheTimeContextTourProduces() throws Exception {
    // the page's other reading comes from a live demo run (real clock); the tour runs in Shanghai
    List<String> produced = TimeContextTour.run().stream().flatMap(String::lines).map(String::strip).toList();
    List<String> shown = new ArrayList<>();
    Matcher m = TEXT_BLOCK.matcher(Files.readString(DOCS.resolve("time-context.md")));
    while (m.find()) {
      if (m.group(1).contains("[Asia/Shanghai]")) {
        m.group(1).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(shown::add);
      }
    }
    assertThat(shown).as("docs/time-context.md shows the tour's reading").isNotEmpty();
    assertThat(produced).containsAll(shown);
  }

  @Test
  void theJobsPageShowsWhatTheJobsTourProduces() throws Exception {
    assertPageMatches("jobs.md", JobsTour.run());
  }

  @Test
  void theConfigErrorsThePagesQuoteAreTheOnesRaised() throws IOException {
    List<String> raised = Configs.loadErrors();

    assertThat(raised).containsExactly(
        "time-context: refreshIntervalMs must be a non-negative safe integer, got 0.5",
        "time-context: invalid IANA timeZone \"Mars/Base\"",
        "tool-jobs: waitTimeoutMs (100) exceeds maxWaitTimeoutMs (50)",
        "jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991, got 0",
        "shell-jobs: retainTailBytes must be a whole number of at least 64, got 10");
    String pages = Files.readString(DOCS.resolve("jobs.md")) + Files.readString(DOCS.resolve("time-context.md"));
    // the registry's error is quoted only as its template (`got <JSON>`)
    assertThat(pages).as("the pages quote the errors").contains(raised.get(0), raised.get(1), raised.get(2), raised.get(4));
  }

  private static void assertPageMatches(String page, List<String> transcript) throws IOException {
    List<String> shown = new ArrayList<>();
    Matcher m = TEXT_BLOCK.matcher(Files.readString(DOCS.resolve(page)));
    while (m.find()) {
      m.group(1).lines().map(String::strip).filter(l -> HEADER.matcher(l).matches()).forEach(shown::add);
    }
    List<String> produced = transcript.stream().flatMap(String::lines).map(String::strip).toList();
    assertThat(shown).as("docs/%s shows transcript lines", page).isNotEmpty();
    assertThat(produced).as("lines docs/%s shows", page).containsAll(shown);
  }
}
