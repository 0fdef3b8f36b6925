package dev.horae.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code java} code block in the README and in {@code docs/} must stand, line for line, in a
 * compiled source of this module (main or test: the tours that need the testkit's manual clock live
 * in the test tree) or of {@code examples-spring-boot} (the Spring snippets of docs/spring-ai.md,
 * which need Spring AI and Boot on the classpath), so no snippet a reader copies can rot.
 */
class SnippetsTest {

  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyJavaSnippetInTheDocsIsCompiledHere() throws IOException {
    String sources = compiledSources();
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    if (Files.isDirectory(ROOT.resolve("docs"))) {
      try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
        s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
      }
    }
    int checked = 0;
    for (Path doc : docs) {
      Matcher m = JAVA_BLOCK.matcher(Files.readString(doc));
      while (m.find()) {
        checked++;
        assertThat(sources).as("the java snippet in %s must be compiled in examples:%n%s", ROOT.relativize(doc), m.group(1))
            .contains(normalize(m.group(1)));
      }
    }
    assertThat(checked).as("README.md shows at least the embedding snippet").isPositive();
  }

  private static String compiledSources() throws IOException {
    StringBuilder all = new StringBuilder();
    for (Path tree : List.of(Path.of("src", "main", "java"), Path.of("src", "test", "java"),
        ROOT.resolve(Path.of("examples-spring-boot", "src", "main", "java")))) {
      try (Stream<Path> s = Files.walk(tree)) {
        for (Path p : s.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          all.append(normalize(Files.readString(p))).append('\n');
        }
      }
    }
    return all.toString();
  }

  /** Compares code, not indentation: each line stripped, blank lines dropped. */
  private static String normalize(String code) {
    return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
  }
}
