package dev.horae.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code §} citations of main code and the numbered rules of {@code docs/reference/}, with the
 * resolution rules that {@code docs/reference/README.md} documents: which page a citation names,
 * how ranges, lists and step or row numbers are read, and when a citation resolves.
 */
final class Citations {

  /** The pages of the reference, one per capability plus the host contract. */
  static final List<String> PAGES = List.of("host", "schedule", "time-context", "jobs", "gate");

  private static final String PAGE_NAME = "(host|schedule|time-context|jobs|gate)";

  /**
   * A page named directly before a {@code §}: {@code host contract}, {@code schedule spec}, {@code
   * gate specification}, {@code jobs}, {@code spec/gate.md}, {@code schedule.md} inside a code tag; or the
   * bare word {@code spec}/{@code specification}, which names the module's own page.
   */
  private static final Pattern NAMED = Pattern.compile(
      "(?i)(?:(?<![\\w-])" + PAGE_NAME + "(?:\\s+(?:spec|specification|contract))?"
          + "|(?:\\{@code\\s+)?(?:spec/)?" + PAGE_NAME + "\\.md\\}?"
          + "|(?<![\\w-])(spec|specification))\\s*$");

  private static final String NUMBER = "\\d+(?:\\.\\d+)*";
  private static final String DASH = "\\s*[–-]\\s*";
  private static final String ITEM = "(?:step|row|check)s?\\s+\\d+(?:" + DASH + "\\d+)?"
      + "(?:(?:\\s*,\\s*|\\s+and\\s+)\\d+(?:" + DASH + "\\d+)?)*";
  private static final Pattern ONE = Pattern.compile(
      "§\\s*(" + NUMBER + ")(?:" + DASH + "§?\\s*(" + NUMBER + "))?(?:\\s+(" + ITEM + "))?");
  private static final Pattern MANY = Pattern.compile(
      "§§\\s*(" + NUMBER + "(?:" + DASH + NUMBER + ")?(?:(?:\\s*,\\s*|\\s+and\\s+)" + NUMBER + "(?:"
          + DASH + NUMBER + ")?)*)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+§?(" + NUMBER + ")\\.?(?:\\s+.*)?$");
  private static final Pattern LIST = Pattern.compile("\\s*,\\s*|\\s+and\\s+");
  private static final Pattern RANGE = Pattern.compile(DASH);
  private static final Pattern ITEM_LINE = Pattern.compile("^\\s*(?:(\\d+)\\.\\s|\\|\\s*(\\d+)\\s*\\|)");

  private Citations() {}

  /**
   * One cited rule.
   *
   * @param file the citing file, relative to the repository root
   * @param line the 1-based line of the {@code §}
   * @param text the citation as written, for messages
   * @param page the page it names, empty when neither the text nor the module names one
   * @param number one section number the citation covers (a range or list yields several)
   * @param items the step, check or row numbers cited inside that section; empty for none
   */
  record Citation(String file, int line, String text, Optional<String> page, String number, List<Integer> items) {}

  /**
   * A numbered section of a reference page.
   *
   * @param number its number, e.g. {@code 6.2}
   * @param body its own text up to the next heading of any level
   */
  record Section(String number, String body) {

    /**
     * Whether the section's own text has a numbered item ({@code 4. …}) or a table row whose first
     * cell is the number ({@code | 4 | …}).
     */
    boolean hasItem(int item) {
      boolean fenced = false;
      for (String l : body.split("\n", -1)) {
        if (l.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher m = ITEM_LINE.matcher(l);
        if (!fenced && m.find()) {
          String n = m.group(1) != null ? m.group(1) : m.group(2);
          if (Integer.parseInt(n) == item) {
            return true;
          }
        }
      }
      return false;
    }
  }

  /**
   * The numbered sections of one page, from its headings ({@code ## 6. Title}, {@code ### 6.2
   * Title}, {@code #### 6.8.1 Title}); headings inside fenced code are not headings.
   *
   * @param markdown the page
   * @param duplicates receives every number that heads more than one section
   * @return the sections by number, in page order
   */
  static Map<String, Section> sections(String markdown, List<String> duplicates) {
    Map<String, Section> out = new LinkedHashMap<>();
    String current = "";
    StringBuilder body = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("#")) {
        // any heading ends the section before it; only a numbered one opens a new section
        put(out, current, body, duplicates);
        Matcher m = HEADING.matcher(line);
        current = m.matches() ? m.group(2) : "";
        body.setLength(0);
        continue;
      }
      body.append(line).append('\n');
    }
    put(out, current, body, duplicates);
    return out;
  }

  private static void put(Map<String, Section> out, String number, StringBuilder body, List<String> duplicates) {
    if (number.isEmpty()) {
      return;
    }
    if (out.containsKey(number)) {
      duplicates.add(number);
    }
    out.putIfAbsent(number, new Section(number, body.toString()));
  }

  /**
   * Every citation in one Java source.
   *
   * @param file the path to report, relative to the repository root
   * @param source the file's text
   * @param defaultPage the page a citation names when its text names none
   * @return the citations in file order, one per covered section number
   */
  static List<Citation> scan(String file, String source, Optional<String> defaultPage) {
    // Comment continuation lines read as one text, so "host\n * contract §3.3" still names its page.
    StringBuilder text = new StringBuilder(source.length());
    List<Integer> lineAt = new ArrayList<>(source.length());
    Matcher joint = Pattern.compile("\\R[ \\t]*(?:\\*(?!/)|//)?[ \\t]*").matcher(source);
    int line = 1;
    int from = 0;
    while (joint.find()) {
      for (int i = from; i < joint.start(); i++) {
        text.append(source.charAt(i));
        lineAt.add(line);
      }
      text.append(' ');
      lineAt.add(line);
      line++;
      from = joint.end();
    }
    for (int i = from; i < source.length(); i++) {
      text.append(source.charAt(i));
      lineAt.add(line);
    }

    List<Citation> out = new ArrayList<>();
    Optional<String> named = Optional.empty();
    int at = text.indexOf("§");
    while (at >= 0) {
      Matcher name = NAMED.matcher(text.subSequence(Math.max(0, at - 80), at));
      if (name.find()) {
        String word = first(name.group(1), name.group(2), name.group(3)).toLowerCase(Locale.ROOT);
        named = word.startsWith("spec") ? defaultPage : Optional.of(word);
      }
      Optional<String> page = named.isPresent() ? named : defaultPage;
      int lineNo = lineAt.get(at);
      boolean many = at + 1 < text.length() && text.charAt(at + 1) == '§';
      Matcher m = (many ? MANY : ONE).matcher(text).region(at, text.length());
      if (!m.lookingAt()) {
        out.add(new Citation(file, lineNo, text.substring(at, Math.min(text.length(), at + 12)).strip(),
            page, "", List.of()));
        at = text.indexOf("§", at + (many ? 2 : 1));
        continue;
      }
      String cited = m.group().replaceAll("\\s+", " ");
      List<String> numbers = new ArrayList<>();
      List<Integer> items = List.of();
      if (many) {
        for (String part : LIST.split(m.group(1), -1)) {
          String[] ends = RANGE.split(part, -1);
          numbers.addAll(expand(ends[0], ends[ends.length - 1]));
        }
      } else {
        numbers.addAll(expand(m.group(1), m.group(2) != null ? m.group(2) : m.group(1)));
        if (m.group(3) != null) {
          items = itemNumbers(m.group(3));
        }
      }
      for (String n : numbers) {
        out.add(new Citation(file, lineNo, cited, page, n, items));
      }
      at = text.indexOf("§", m.end());
    }
    return out;
  }

  private static String first(String... candidates) {
    for (String c : candidates) {
      if (c != null) {
        return c;
      }
    }
    throw new IllegalStateException("no group matched");
  }

  /**
   * The sections a range covers: both ends, and when the ends differ only in their last component
   * ({@code §3.4–§3.7}, {@code §5–§9}) every section between them.
   */
  static List<String> expand(String from, String to) {
    if (from.equals(to)) {
      return List.of(from);
    }
    int cut = from.lastIndexOf('.');
    int cutTo = to.lastIndexOf('.');
    String prefix = cut < 0 ? "" : from.substring(0, cut + 1);
    if (cut != cutTo || !to.startsWith(prefix)) {
      return List.of(from, to);
    }
    int a = Integer.parseInt(from.substring(cut + 1));
    int b = Integer.parseInt(to.substring(cutTo + 1));
    if (b < a) {
      return List.of(from, to);
    }
    List<String> out = new ArrayList<>();
    for (int i = a; i <= b; i++) {
      out.add(prefix + i);
    }
    return out;
  }

  private static List<Integer> itemNumbers(String items) {
    List<Integer> out = new ArrayList<>();
    String list = items.replaceFirst("^(?:step|row|check)s?\\s+", "");
    for (String part : LIST.split(list, -1)) {
      String[] ends = RANGE.split(part.strip(), -1);
      int a = Integer.parseInt(ends[0]);
      int b = Integer.parseInt(ends[ends.length - 1]);
      for (int i = a; i <= b; i++) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * What is wrong with the citations, one line each: {@code file:line: §X names no rule in
   * docs/reference/<page>.md}, or why the citation names no page or cannot be read.
   *
   * @param citations the citations
   * @param pages the sections of each page by page name
   * @return the problems, in citation order
   */
  static List<String> problems(List<Citation> citations, Map<String, Map<String, Section>> pages) {
    List<String> out = new ArrayList<>();
    for (Citation c : citations) {
      String where = c.file() + ":" + c.line() + ": ";
      if (c.number().isEmpty()) {
        out.add(where + "\"" + c.text() + "\" is not a section number (write §N, §N.M, §N.M–§N.K or §§N, M)");
        continue;
      }
      if (c.page().isEmpty()) {
        out.add(where + "§" + c.number() + " names no page: this module has no default page, so write "
            + "which one (host contract, schedule spec, time-context spec, jobs spec, gate spec)");
        continue;
      }
      String page = c.page().get();
      String doc = "docs/reference/" + page + ".md";
      Section s = pages.getOrDefault(page, Map.of()).get(c.number());
      if (s == null) {
        out.add(where + "§" + c.number() + " names no rule in " + doc);
        continue;
      }
      for (int item : c.items()) {
        if (!s.hasItem(item)) {
          out.add(where + "§" + c.number() + " has no item " + item + " in " + doc
              + " (cited as \"" + c.text() + "\")");
        }
      }
    }
    return out;
  }

  /**
   * The relative links of the Markdown files in {@code dir} that land nowhere: a missing file, or
   * an {@code #anchor} that is not the GitHub slug of a heading of the target.
   *
   * @param dir the folder whose {@code .md} files are read
   * @return one line per broken link, {@code file: (target)}
   */
  static List<String> brokenLinks(Path dir) {
    List<String> out = new ArrayList<>();
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        Matcher m = link.matcher(withoutCode(read(file)));
        while (m.find()) {
          String target = m.group(1);
          if (target.matches("[a-z]+:.*")) {
            continue;
          }
          int hash = target.indexOf('#');
          String path = hash < 0 ? target : target.substring(0, hash);
          Path resolved = path.isEmpty() ? file : dir.resolve(path).normalize();
          boolean ok = Files.exists(resolved)
              && (hash < 0 || slugs(read(resolved)).contains(target.substring(hash + 1)));
          if (!ok) {
            out.add(file.getFileName() + ": (" + target + ")");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The GitHub anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens. */
  static List<String> slugs(String markdown) {
    List<String> out = new ArrayList<>();
    for (String line : withoutCode(markdown).split("\n", -1)) {
      Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*$").matcher(line);
      if (h.matches()) {
        out.add(h.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return out;
  }

  /** The text with fenced code blocks blanked, so their lines are neither links nor headings. */
  private static String withoutCode(String markdown) {
    StringBuilder out = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        out.append('\n');
        continue;
      }
      out.append(fenced ? "" : line).append('\n');
    }
    return out.toString();
  }

  /**
   * The repository root: the nearest folder at or above the working directory whose {@code
   * pom.xml} lists the {@code conformance} module.
   */
  static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom) && read(pom).contains("<module>conformance</module>")) {
        return dir;
      }
    }
    throw new AssertionError("no pom.xml with <module>conformance</module> at or above "
        + Path.of("").toAbsolutePath());
  }

  /** The modules the root pom lists, in its order. */
  static List<String> modules(Path root) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>").matcher(read(root.resolve("pom.xml")));
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** Every {@code .java} file under a module's {@code src/main/java}, sorted. */
  static List<Path> mainSources(Path module) {
    Path src = module.resolve("src/main/java");
    if (!Files.isDirectory(src)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(src)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
