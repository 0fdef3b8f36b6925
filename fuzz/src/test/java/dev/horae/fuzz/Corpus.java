package dev.horae.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Seeds from the repository's public conformance vectors ({@code
 * conformance/src/test/resources/vectors}): whole case lines, the {@code args} members of a
 * function's cases, and every session event the vectors mention, put into the stored event form.
 */
final class Corpus {

  private Corpus() {}

  /**
   * The vectors folder, found from the module directory Surefire runs in.
   *
   * @return the folder holding the {@code *.jsonl} vector files
   */
  static Path vectorsDir() {
    Path module = Path.of("").toAbsolutePath();
    Path root = module.getParent();
    Path dir = root == null ? module : root.resolve("conformance").resolve("src").resolve("test").resolve("resources")
        .resolve("vectors");
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("fuzz tests run in the fuzz module directory; no vectors at " + dir);
    }
    return dir;
  }

  /**
   * Every non-blank line of every vector file, in file order.
   *
   * @return the case lines
   */
  static List<String> vectorLines() {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(vectorsDir())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            lines.add(line);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  /**
   * The {@code args.<member>} values of every case of one function.
   *
   * @param fn the conformance function, e.g. {@code gate.decodeTicket}
   * @param member the argument's name
   * @return the values, as compact JSON texts
   */
  static List<String> args(String fn, String member) {
    List<String> out = new ArrayList<>();
    for (String line : vectorLines()) {
      JsonNode c = Json.parse(line);
      JsonNode v = c.path("args").path(member);
      if (c.path("fn").asText().equals(fn) && !v.isMissingNode()) {
        out.add(Json.write(v));
      }
    }
    return out;
  }

  /**
   * The whole {@code args} objects of every case of one function.
   *
   * @param fn the conformance function
   * @return the objects, as compact JSON texts
   */
  static List<String> argsObjects(String fn) {
    List<String> out = new ArrayList<>();
    for (String line : vectorLines()) {
      JsonNode c = Json.parse(line);
      if (c.path("fn").asText().equals(fn) && c.path("args").isObject()) {
        out.add(Json.write(c.get("args")));
      }
    }
    return out;
  }

  /**
   * Every event object the vectors hold ({@code args.events} elements and {@code
   * args.candidate}), with {@code seq} and {@code time} set as a store writes them.
   *
   * @return the event JSON objects
   */
  static List<ObjectNode> vectorEvents() {
    List<ObjectNode> out = new ArrayList<>();
    for (String line : vectorLines()) {
      JsonNode args = Json.parse(line).path("args");
      List<JsonNode> events = new ArrayList<>();
      args.path("events").forEach(events::add);
      if (args.path("candidate").isObject()) {
        events.add(args.get("candidate"));
      }
      for (JsonNode e : events) {
        if (e.isObject() && e.path("type").isTextual() && e.has("data")) {
          ObjectNode stored = Json.mapper().createObjectNode();
          stored.put("seq", out.size());
          stored.put("type", e.get("type").asText());
          stored.put("time", 1_755_650_000_000L + out.size());
          stored.set("data", e.get("data"));
          out.add(stored);
        }
      }
    }
    return out;
  }

  /**
   * The event lists of every vector case of one function, as stored logs (JSON arrays of
   * events with contiguous seqs from 0).
   *
   * @param fn the conformance function, e.g. {@code schedule.fold}
   * @return the arrays, as compact JSON texts
   */
  static List<String> vectorLogs(String fn) {
    List<String> out = new ArrayList<>();
    for (String line : vectorLines()) {
      JsonNode c = Json.parse(line);
      if (!c.path("fn").asText().equals(fn) || !c.path("args").path("events").isArray()) {
        continue;
      }
      ArrayNode log = Json.mapper().createArrayNode();
      for (JsonNode e : c.path("args").path("events")) {
        if (!e.path("type").isTextual()) {
          continue;
        }
        ObjectNode stored = log.addObject();
        stored.put("seq", log.size() - 1);
        stored.set("type", e.path("type"));
        stored.put("time", 1_755_650_000_000L + log.size());
        stored.set("data", e.path("data"));
      }
      out.add(Json.write(log));
    }
    return out;
  }
}
