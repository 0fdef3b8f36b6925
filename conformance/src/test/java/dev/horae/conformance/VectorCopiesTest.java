package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's public vectors are the one home of vector data inside the repository: they
 * mirror the team's spec folder byte for byte when a checkout has it beside the repository, and
 * every module that keeps its own copy for its unit tests keeps a copy or a verbatim subset of
 * them.
 */
class VectorCopiesTest {

  @Test
  void theRepositoryVectorsMirrorTheTeamSpecFolderWhenItIsBeside() throws IOException {
    Optional<Path> team = VectorsDir.teamSpecFolder();
    assumeTrue(team.isPresent(), () -> "no shared/conformance/vectors beside " + VectorsDir.repositoryRoot()
        + ": a standalone clone, so there is nothing to compare the repository's vectors with");
    Path mine = VectorsDir.repository();

    Map<String, Path> ours = jsonl(mine);
    Map<String, Path> theirs = jsonl(team.orElseThrow());
    assertThat(ours.keySet()).as("vector files in %s vs %s", mine, team.orElseThrow())
        .containsExactlyElementsOf(theirs.keySet());
    for (Map.Entry<String, Path> spec : theirs.entrySet()) {
      Path own = Objects.requireNonNull(ours.get(spec.getKey()));
      assertThat(firstDifference(own, spec.getValue()))
          .as("%s must be byte-equal to %s (copy it again after a spec change)", own, spec.getValue())
          .isEmpty();
    }
  }

  @Test
  void everyModuleCopyIsAFileOrAVerbatimSubsetOfTheRepositoryVectors() throws IOException {
    Path mine = VectorsDir.repository();
    Map<String, Path> ours = jsonl(mine);
    Set<String> allLines = new HashSet<>();
    for (Path p : ours.values()) {
      allLines.addAll(lines(p));
    }
    List<Path> copies = new ArrayList<>();
    try (Stream<Path> modules = Files.list(VectorsDir.repositoryRoot())) {
      for (Path module : (Iterable<Path>) modules.sorted()::iterator) {
        Path dir = module.resolve("src/test/resources/vectors");
        if (Files.isDirectory(dir) && !module.getFileName().toString().equals("conformance")) {
          copies.addAll(jsonl(dir).values());
        }
      }
    }
    // today schedule-core, time-context, jobs-controller, gate-runtime and invariant keep copies
    assertThat(copies).as("module copies of the vectors").isNotEmpty();
    for (Path copy : copies) {
      Path same = ours.get(copy.getFileName().toString());
      if (same != null) {
        assertThat(firstDifference(copy, same)).as("%s must be byte-equal to %s", copy, same).isEmpty();
      } else {
        List<String> own = lines(copy);
        assertThat(own).as("%s holds cases", copy).isNotEmpty();
        assertThat(own).as("every case of %s must be a line of the repository's vectors, verbatim", copy)
            .allSatisfy(line -> assertThat(allLines).contains(line));
      }
    }
  }

  private static Map<String, Path> jsonl(Path dir) throws IOException {
    TreeMap<String, Path> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(dir)) {
      list.filter(p -> p.getFileName().toString().endsWith(".jsonl"))
          .forEach(p -> files.put(p.getFileName().toString(), p));
    }
    return files;
  }

  private static List<String> lines(Path p) throws IOException {
    return Files.readAllLines(p, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
  }

  /** Empty when the two files hold the same bytes, else where they first differ. */
  private static Optional<String> firstDifference(Path a, Path b) throws IOException {
    byte[] x = Files.readAllBytes(a);
    byte[] y = Files.readAllBytes(b);
    int at = Arrays.mismatch(x, y);
    if (at < 0) {
      return Optional.empty();
    }
    int line = 1;
    for (int i = 0; i < at; i++) {
      if (x[i] == '\n') {
        line++;
      }
    }
    return Optional.of("first difference at byte " + at + " (line " + line + "); sizes " + x.length + " and " + y.length);
  }
}
