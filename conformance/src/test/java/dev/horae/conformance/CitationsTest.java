package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.conformance.Citations.Citation;
import dev.horae.conformance.Citations.Section;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every {@code §} citation in main code names a numbered rule of {@code docs/reference/}, read with
 * the resolution rules of {@code docs/reference/README.md}; the module-to-page defaults are read
 * from that README's table, so the documented rule and the checked rule are one.
 */
@Timeout(60)
class CitationsTest {

  private static Path root;
  private static Map<String, Map<String, Section>> pages;
  private static Map<String, Optional<String>> defaults;
  private static List<String> duplicates;

  @BeforeAll
  static void readTheReference() {
    root = Citations.repositoryRoot();
    duplicates = new ArrayList<>();
    pages = new LinkedHashMap<>();
    for (String page : Citations.PAGES) {
      List<String> dup = new ArrayList<>();
      pages.put(page, Citations.sections(Citations.read(root.resolve("docs/reference/" + page + ".md")), dup));
      dup.forEach(n -> duplicates.add(page + ".md §" + n));
    }
    defaults = defaultPages(Citations.read(root.resolve("docs/reference/README.md")));
  }

  @Test
  void everyCitationInMainCodeNamesARuleOfTheReference() {
    List<Citation> citations = mainCodeCitations();

    assertThat(Citations.problems(citations, pages))
        .as("citations that resolve to no rule (see docs/reference/README.md)")
        .isEmpty();
    // the scan must actually see the code: every page is cited from main code
    assertThat(citations).hasSizeGreaterThan(100);
    assertThat(citations.stream().flatMap(c -> c.page().stream()).distinct())
        .containsExactlyInAnyOrderElementsOf(Citations.PAGES);
  }

  @Test
  void removingACitedSectionFailsTheCheck() {
    List<Citation> citations = mainCodeCitations();
    for (String page : Citations.PAGES) {
      Citation victim = citations.stream()
          .filter(c -> c.page().equals(Optional.of(page)) && !c.number().isEmpty())
          .findFirst()
          .orElseThrow();
      Map<String, Map<String, Section>> without = new LinkedHashMap<>(pages);
      Map<String, Section> sections = new LinkedHashMap<>(pages.get(page));
      sections.remove(victim.number());
      without.put(page, sections);

      assertThat(Citations.problems(citations, without)).contains(victim.file() + ":" + victim.line()
          + ": §" + victim.number() + " names no rule in docs/reference/" + page + ".md");
    }
  }

  @Test
  void everyPageNumbersEachSectionOnce() {
    assertThat(duplicates).as("section numbers heading more than one section").isEmpty();
  }

  @Test
  void theReadmeDecidesADefaultPageForEveryModule() {
    assertThat(defaults.keySet()).containsExactlyInAnyOrderElementsOf(Citations.modules(root));
    assertThat(defaults.values().stream().flatMap(Optional::stream)).allMatch(Citations.PAGES::contains);
  }

  @Test
  void everyLinkOfTheReferenceLandsOnAPageAndHeading() {
    assertThat(Citations.brokenLinks(root.resolve("docs/reference"))).isEmpty();
    assertThat(Citations.slugs("### 6.2 Pipeline\n## 6. `schedule_create`\n### 12.0 One log: commits live"))
        .containsExactly("62-pipeline", "6-schedule_create", "120-one-log-commits-live");
  }

  @Test
  void aRangeCoversEverySectionBetweenItsEnds() {
    assertThat(numbers(scan("(spec §3.4–§3.7)", "jobs"))).containsExactly("3.4", "3.5", "3.6", "3.7");
    assertThat(numbers(scan("(§12.4–12.5)", "gate"))).containsExactly("12.4", "12.5");
    assertThat(numbers(scan("(gate specification §5–§9, §13)", "gate")))
        .containsExactly("5", "6", "7", "8", "9", "13");
    assertThat(numbers(scan("(§6.8.2–§6.8.3)", "schedule"))).containsExactly("6.8.2", "6.8.3");
    assertThat(numbers(scan("(§2.5–§3.1)", "jobs"))).containsExactly("2.5", "3.1");
  }

  @Test
  void aDoubleSectionSignCoversEveryListedNumber() {
    assertThat(numbers(scan("see §§3, 4 and 6.1–6.2.", "host"))).containsExactly("3", "4", "6.1", "6.2");
  }

  @Test
  void stepsRowsAndChecksAreItemsOfTheirSection() {
    List<Citation> c = scan("(§6.1 step 4, §12.4 row 3, §11.2 check 2, §6.2 steps 3 and 8–9)", "schedule");

    assertThat(c).extracting(Citation::number).containsExactly("6.1", "12.4", "11.2", "6.2");
    assertThat(c).extracting(Citation::items)
        .containsExactly(List.of(4), List.of(3), List.of(2), List.of(3, 8, 9));

    String page = """
        ### 6.1 Steps
        1. one
        4. four
        ### 6.2 More
        3. three
        8. eight
        #### 11.2 Checks
        2. two
        ### 12.4 Table
        | # | condition |
        |---|---|
        | 3 | third |
        """;
    Map<String, Map<String, Section>> doc = Map.of("schedule", Citations.sections(page, new ArrayList<>()));
    assertThat(Citations.problems(c, doc))
        .containsExactly("A.java:1: §6.2 has no item 9 in docs/reference/schedule.md (cited as \"§6.2 steps 3 and 8–9\")");
  }

  @Test
  void aNamedPageHoldsAcrossLineBreaksAndForTheRestOfTheFile() {
    String source = """
        /**
         * The one zone resolver (schedule spec §16.4, host
         * contract §3.3 and §7.3).
         */
        /** The registry (jobs spec §2). */
        /** Reads a job (§2.7). */
        /** As the module's own spec §6 says. */
        /** The file store ({@code spec/gate.md} §12.3), gate
         * specification §10.2 and jobs §5.1. */
        """;

    List<Citation> c = Citations.scan("A.java", source, Optional.of("time-context"));

    assertThat(c).extracting(x -> x.page().orElseThrow() + " " + x.number() + " @" + x.line())
        .containsExactly("schedule 16.4 @2", "host 3.3 @3", "host 7.3 @3", "jobs 2 @5", "jobs 2.7 @6",
            "time-context 6 @7", "gate 12.3 @8", "gate 10.2 @9", "jobs 5.1 @9");
  }

  @Test
  void aModuleWithoutADefaultMustNameThePage() {
    List<Citation> c = Citations.scan("B.java", "/** The fold (§3.5), the view (schedule spec §4.1). */",
        Optional.empty());

    assertThat(Citations.problems(c, pages)).singleElement().asString()
        .startsWith("B.java:1: §3.5 names no page");
  }

  @Test
  void aSectionSignWithoutANumberIsReported() {
    assertThat(Citations.problems(scan("the § sign", "host"), pages)).singleElement().asString()
        .contains("is not a section number");
  }

  private static List<Citation> scan(String comment, String page) {
    return Citations.scan("A.java", "/** " + comment + " */", Optional.of(page));
  }

  private static List<String> numbers(List<Citation> citations) {
    return citations.stream().map(Citation::number).toList();
  }

  private static List<Citation> mainCodeCitations() {
    List<Citation> out = new ArrayList<>();
    for (String module : Citations.modules(root)) {
      Optional<String> page = defaults.getOrDefault(module, Optional.empty());
      for (Path file : Citations.mainSources(root.resolve(module))) {
        String name = root.relativize(file).toString().replace('\\', '/');
        out.addAll(Citations.scan(name, Citations.read(file), page));
      }
    }
    return out;
  }

  /**
   * The table under {@code ## Default pages} of the README: rows of back-quoted module names and
   * either a page link or {@code none}.
   */
  private static Map<String, Optional<String>> defaultPages(String readme) {
    int start = readme.indexOf("\n## Default pages");
    assertThat(start).as("docs/reference/README.md has a \"## Default pages\" section").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    String section = readme.substring(start, end < 0 ? readme.length() : end);
    Map<String, Optional<String>> out = new LinkedHashMap<>();
    Matcher row = Pattern.compile("(?m)^\\|([^|]*`[^|]*)\\|([^|]*)\\|\\s*$").matcher(section);
    while (row.find()) {
      Matcher page = Pattern.compile("\\(([a-z-]+)\\.md\\)").matcher(row.group(2));
      Optional<String> target = page.find() ? Optional.of(page.group(1)) : Optional.empty();
      Matcher module = Pattern.compile("`([^`]+)`").matcher(row.group(1));
      while (module.find()) {
        out.put(module.group(1), target);
      }
    }
    return out;
  }
}
