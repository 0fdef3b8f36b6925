package dev.horae.conformance;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the tests find vectors. The public vectors are part of this repository ({@code
 * conformance/src/test/resources/vectors}, on the test classpath as {@code /vectors}), so a clone
 * with nothing beside it runs them; the team's spec folder they are mirrored from is only
 * compared against, never required.
 */
final class VectorsDir {

  private VectorsDir() {}

  /**
   * Returns the repository's public vectors folder (the copy on the test classpath).
   *
   * @return the folder holding the {@code *.jsonl} vector files
   */
  static Path repository() {
    URL url = VectorsDir.class.getResource("/vectors");
    if (url == null) {
      throw new AssertionError("the public vectors are missing from the test classpath "
          + "(expected conformance/src/test/resources/vectors)");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError("unusable vectors location " + url, e);
    }
  }

  /**
   * Returns the folder of this repository's sources: the parent of the module directory Surefire
   * runs in.
   *
   * @return the repository root
   */
  static Path repositoryRoot() {
    Path module = Path.of("").toAbsolutePath();
    Path root = module.getParent();
    if (root == null || !Files.isRegularFile(root.resolve("pom.xml"))
        || !Files.isDirectory(root.resolve("conformance"))) {
      throw new AssertionError("tests must run in the conformance module directory, not " + module);
    }
    return root;
  }

  /**
   * Returns the team's spec folder of vectors beside the repository ({@code
   * ../shared/conformance/vectors}), when this checkout has one.
   *
   * @return the folder, or empty in a standalone clone
   */
  static Optional<Path> teamSpecFolder() {
    Path root = repositoryRoot();
    Path parent = root.getParent();
    if (parent == null) {
      return Optional.empty();
    }
    Path candidate = parent.resolve("shared").resolve("conformance").resolve("vectors");
    return Files.isDirectory(candidate) ? Optional.of(candidate) : Optional.empty();
  }
}
