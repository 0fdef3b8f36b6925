package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public vector of the repository ({@code conformance/src/test/resources/vectors}) passes
 * through the runner, and the command line reports the same run.
 */
class PublicVectorsTest {

  @Test
  void everyPublicVectorPasses() throws IOException {
    Path dir = VectorsDir.repository();
    List<String> failures = new ArrayList<>();
    Report report = ConformanceRunner.standard(List.of()).run(List.of(dir), failures::add);

    assertThat(failures).as("FAIL lines").isEmpty();
    assertThat(report.passed()).isEqualTo(countCases(dir)).isGreaterThanOrEqualTo(401);
    assertThat(report.summary()).isEqualTo(report.passed() + " passed, 0 failed");
    assertThat(report.exitStatus()).isZero();
  }

  @Test
  void theCommandLineReportsTheSameRun() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Conformance.run(new String[] {VectorsDir.repository().toString()},
        ConformanceRunner.standard(List.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(status).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).matches("\\d+ passed, 0 failed\\R");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  private static long countCases(Path dir) throws IOException {
    long n = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".jsonl"))::iterator) {
        n += Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).count();
      }
    }
    return n;
  }
}
