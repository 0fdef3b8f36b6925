package dev.horae.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every artifact the BOM publishes names its JPMS module (docs/architecture.md, "Module names"):
 * its pom sets {@code horae.module.name}, which the root pom writes into the jar's
 * {@code Automatic-Module-Name}, and the name is the package root of every main class the module
 * holds, so two jars never claim one package and a user's {@code requires} reads like the imports.
 */
@Timeout(60)
class ModuleNameTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  private static final Pattern NAME = Pattern.compile("<horae\\.module\\.name>([^<]+)</horae\\.module\\.name>");
  private static final Pattern BOM_ARTIFACT = Pattern.compile(
      "<groupId>dev\\.horae</groupId><artifactId>([^<]+)</artifactId>");

  @Test
  void everyPublishedModuleNamesItsPackageRoot() throws IOException {
    Set<String> published = matches(BOM_ARTIFACT, Files.readString(ROOT.resolve("bom/pom.xml")));
    List<String> checked = new ArrayList<>();
    for (String dir : matches(MODULE, Files.readString(ROOT.resolve("pom.xml")))) {
      String pom = Files.readString(ROOT.resolve(dir).resolve("pom.xml"));
      if (!published.contains(artifactId(pom))) {
        continue;
      }
      Matcher name = NAME.matcher(pom);
      assertThat(name.find()).as("%s/pom.xml sets horae.module.name", dir).isTrue();
      String module = name.group(1);
      assertThat(module).as("%s's module name", dir).matches("dev\\.horae(\\.[a-z][a-z0-9]*)+");
      for (String pkg : packages(ROOT.resolve(dir).resolve("src/main/java"))) {
        assertThat(pkg.equals(module) || pkg.startsWith(module + "."))
            .as("package %s of %s lies under its module name %s", pkg, dir, module).isTrue();
      }
      checked.add(module);
    }
    assertThat(checked).as("one module of the reactor for each BOM artifact").hasSize(published.size())
        .doesNotHaveDuplicates();
  }

  @Test
  void aPackagedJarCarriesTheName() throws Exception {
    // in a reactor build past `package` the test classpath holds the module jars themselves
    Path location = Path.of(dev.horae.spi.HoraeException.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (Files.isRegularFile(location)) {
      try (JarFile jar = new JarFile(location.toFile())) {
        assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo("dev.horae.spi");
      }
    } else {
      String pom = Files.readString(ROOT.resolve("pom.xml"));
      assertThat(pom).contains("<Automatic-Module-Name>${horae.module.name}</Automatic-Module-Name>");
    }
  }

  private static String artifactId(String pom) {
    Matcher m = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>").matcher(pom);
    return m.find() ? m.group(1) : "";
  }

  private static Set<String> matches(Pattern p, String text) {
    Set<String> out = new TreeSet<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static Set<String> packages(Path sources) throws IOException {
    Set<String> out = new TreeSet<>();
    if (!Files.isDirectory(sources)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(sources)) {
      files.filter(f -> f.toString().endsWith(".java"))
          .forEach(f -> out.add(sources.relativize(f.getParent()).toString().replace('/', '.')));
    }
    return out;
  }
}
