package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.conformance.scenario.ScenarioRunner;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** Every host scenario under {@code src/test/resources/scenarios} passes on the reference host. */
class ScenarioFilesTest {

  @Test
  void everyScenarioPassesOnTheReferenceHost() throws IOException, URISyntaxException {
    URL url = Objects.requireNonNull(getClass().getResource("/scenarios"), "scenarios folder");
    List<String> failures = new ArrayList<>();
    Report report = ConformanceRunner.standard(List.of(ScenarioRunner.onTestkit()))
        .run(List.of(Path.of(url.toURI())), failures::add);

    assertThat(failures).as("FAIL lines").isEmpty();
    assertThat(report.passed()).isGreaterThanOrEqualTo(119);
  }
}
