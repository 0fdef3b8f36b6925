package dev.horae.conformance.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds case files and splits them into cases. A {@code *.jsonl} file holds one case per line;
 * a {@code *.scenarios.json} file holds a JSON array of cases (scenarios are long, so they are
 * written pretty-printed). A line or element that is not a JSON object, or a line that is not
 * UTF-8, becomes a case that fails alone.
 */
public final class CaseFiles {

  /** The suffix of JSON Lines vector files. */
  public static final String LINES = ".jsonl";

  /** The suffix of scenario files (a JSON array of cases). */
  public static final String SCENARIOS = ".scenarios.json";

  private CaseFiles() {}

  /**
   * One case as read from a file.
   *
   * @param origin {@code <file>:<line>} or {@code <file>#<index>}, the id of last resort
   * @param json the case object, empty when the text was not a JSON object
   * @param problem why {@code json} is empty
   */
  public record RawCase(String origin, Optional<JsonNode> json, String problem) {}

  /**
   * Expands the arguments: a file is taken as is, a directory means every case file below it, in
   * path order.
   *
   * @param paths files and directories
   * @return the case files
   * @throws IOException when a path does not exist or cannot be listed
   */
  public static List<Path> expand(List<Path> paths) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> walk = Files.walk(p)) {
          files.addAll(walk.filter(Files::isRegularFile)
              .filter(f -> isCaseFile(f.getFileName().toString()))
              .sorted()
              .collect(Collectors.toList()));
        }
      } else if (Files.isRegularFile(p)) {
        files.add(p);
      } else {
        throw new NoSuchFileException(p.toString());
      }
    }
    return files;
  }

  private static boolean isCaseFile(String name) {
    return name.endsWith(LINES) || name.endsWith(SCENARIOS);
  }

  /**
   * Reads the cases of one file.
   *
   * @param file a case file
   * @return its cases in file order
   * @throws IOException when the file cannot be read
   */
  public static List<RawCase> read(Path file) throws IOException {
    String name = file.toString();
    List<RawCase> cases = new ArrayList<>();
    if (name.endsWith(SCENARIOS)) {
      JsonNode all;
      byte[] bytes = Files.readAllBytes(file);
      try {
        all = Json.parse(utf8(bytes, 0, bytes.length));
      } catch (CharacterCodingException e) {
        cases.add(broken(name, "not UTF-8: " + e));
        return cases;
      } catch (IllegalArgumentException e) {
        cases.add(broken(name, String.valueOf(e.getMessage())));
        return cases;
      }
      if (!all.isArray()) {
        cases.add(broken(name, "a scenarios file must hold a JSON array of cases"));
        return cases;
      }
      for (int i = 0; i < all.size(); i++) {
        cases.add(of(name + "#" + i, all.get(i)));
      }
      return cases;
    }
    byte[] bytes = Files.readAllBytes(file);
    int number = 0;
    int start = 0;
    // lines end at LF, CR or CR LF, as Files.readAllLines splits them; both bytes are ASCII,
    // so they never occur inside a multi-byte UTF-8 sequence and a bad line stays alone
    for (int i = 0; i <= bytes.length; i++) {
      boolean last = i == bytes.length;
      if (!last && bytes[i] != '\n' && bytes[i] != '\r') {
        continue;
      }
      if (last && start == bytes.length) {
        break;
      }
      number++;
      String origin = name + ":" + number;
      int end = i;
      if (!last && bytes[i] == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n') {
        i++;
      }
      int from = start;
      start = i + 1;
      String line;
      try {
        line = utf8(bytes, from, end - from);
      } catch (CharacterCodingException e) {
        cases.add(broken(origin, "not UTF-8: " + e));
        continue;
      }
      if (line.isBlank()) {
        continue;
      }
      try {
        cases.add(of(origin, Json.parse(line)));
      } catch (IllegalArgumentException e) {
        cases.add(broken(origin, String.valueOf(e.getMessage())));
      }
    }
    return cases;
  }

  /** Strict UTF-8: a malformed sequence is an error, never a silent U+FFFD in a case. */
  private static String utf8(byte[] bytes, int offset, int length) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes, offset, length))
        .toString();
  }

  private static RawCase of(String origin, JsonNode json) {
    return json.isObject()
        ? new RawCase(origin, Optional.of(json), "")
        : broken(origin, "a case must be a JSON object");
  }

  private static RawCase broken(String origin, String problem) {
    return new RawCase(origin, Optional.empty(), problem);
  }
}
