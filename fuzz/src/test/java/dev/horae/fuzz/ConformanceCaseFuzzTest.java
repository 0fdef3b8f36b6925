package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.conformance.ConformanceRunner;
import dev.horae.conformance.Report;
import dev.horae.conformance.internal.CaseFiles;
import dev.horae.fuzz.FuzzRun.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance runner's reader of case files: mutated vector lines in a {@code .jsonl} file,
 * run by the library suites, and mutated scenario files read into cases. A case that cannot be
 * read or run is a failed case, never a crashed run: the run answers with a report counting every
 * non-blank line. A suite function that throws anything but its own error reports {@code
 * unexpected <exception>}; such a line is a finding too (the library leaked the wrong exception
 * to the conformance adapter).
 */
class ConformanceCaseFuzzTest {

  @TempDir Path dir;

  private static final ConformanceRunner RUNNER = ConformanceRunner.standard(List.of());

  /**
   * A failure line naming an exception a suite function let escape. {@code
   * IllegalArgumentException} is what the library's Java functions document for an argument
   * outside their domain (an unknown zone name, say), so only the other kinds are findings.
   */
  private static final Pattern UNEXPECTED =
      Pattern.compile("unexpected (?!IllegalArgumentException:)[A-Za-z]+(Exception|Error)");

  static List<byte[]> lines() {
    return FuzzRun.corpus(Corpus.vectorLines());
  }

  static List<byte[]> scenarios() {
    Path dir = Corpus.vectorsDir().resolveSibling("scenarios");
    List<byte[]> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        out.add(Files.readAllBytes(f));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  Verdict caseLines(byte[] input) throws IOException {
    Path file = dir.resolve("fuzz.jsonl");
    Files.write(file, input);
    List<String> failures = new ArrayList<>();
    Report report = RUNNER.run(List.of(file), failures::add);
    assertThat(report.passed() + report.failed()).as("one result per non-blank line").isEqualTo(nonBlankLines(input));
    for (String line : failures) {
      assertThat(UNEXPECTED.matcher(line).find()).as(line).isFalse();
    }
    return report.failed() == 0 ? Verdict.VALID : Verdict.DOMAIN_ERROR;
  }

  private static long nonBlankLines(byte[] input) {
    return new String(input, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).count();
  }

  Verdict scenarioFile(byte[] input) throws IOException {
    Path file = dir.resolve("fuzz.scenarios.json");
    Files.write(file, input);
    List<CaseFiles.RawCase> cases = CaseFiles.read(file);
    assertThat(cases).isNotEmpty();
    return cases.stream().allMatch(c -> c.json().isPresent()) ? Verdict.VALID : Verdict.DOMAIN_ERROR;
  }

  @Test
  void vectorLines() {
    FuzzRun.assertClean(FuzzRun.run("ConformanceRunner.lines", 51, FuzzRun.CORPUS / 2, FuzzRun.CORPUS_BUDGET, lines(),
        this::caseLines));
  }

  @Test
  void scenarioFiles() {
    FuzzRun.assertClean(FuzzRun.run("CaseFiles.scenarios", 52, FuzzRun.CORPUS / 6, FuzzRun.CORPUS_BUDGET,
        scenarios(), this::scenarioFile));
  }

  @Test
  @Tag("slow")
  void vectorLinesLong() {
    FuzzRun.assertClean(FuzzRun.run("ConformanceRunner.lines", 151, FuzzRun.LONG, FuzzRun.LONG_BUDGET, lines(),
        this::caseLines));
  }
}
