package dev.horae.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the shared public vectors: the {@code horae.vectors} system property when set, else
 * {@code shared/conformance/vectors} beside the project root or any of its ancestors. Surefire
 * runs in the module directory ({@code main/conformance}), where the folder is {@code
 * ../../shared/conformance/vectors}.
 */
final class VectorsDir {

  private VectorsDir() {}

  static Path locate() {
    String property = System.getProperty("horae.vectors");
    if (property != null && !property.isBlank()) {
      return require(Path.of(property), List.of(Path.of(property)));
    }
    List<Path> tried = new ArrayList<>();
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("conformance").resolve("vectors");
      tried.add(candidate);
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("public vectors not found; looked at " + tried
        + " (set -Dhorae.vectors=DIR to point at shared/conformance/vectors)");
  }

  private static Path require(Path p, List<Path> tried) {
    if (!Files.isDirectory(p)) {
      throw new AssertionError("public vectors not found at " + tried);
    }
    return p;
  }
}
