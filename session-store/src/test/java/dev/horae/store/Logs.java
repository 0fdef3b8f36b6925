package dev.horae.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** Builders of headers and logs, and readers of raw event files, for the store tests. */
final class Logs {

  private Logs() {}

  static SessionHeader header(String id) {
    return SessionHeader.root(id, 1_700_000_000_000L, Optional.of("Europe/Berlin"));
  }

  static SessionEvent event(long seq) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("n", Math.toIntExact(seq));
    data.put("text", "event " + seq);
    return SessionEvent.of(seq, "test/event", 1_700_000_000_000L + seq, data);
  }

  /** Arrays nested {@code depth} levels deep: data at the parser's nesting limit. */
  static com.fasterxml.jackson.databind.JsonNode nested(int depth) {
    com.fasterxml.jackson.databind.node.ArrayNode top = Json.mapper().createArrayNode();
    com.fasterxml.jackson.databind.node.ArrayNode at = top;
    for (int i = 1; i < depth; i++) {
      at = at.addArray();
    }
    return top;
  }

  static List<SessionEvent> log(int size) {
    List<SessionEvent> log = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      log.add(event(i));
    }
    return List.copyOf(log);
  }

  static void persist(FileSessionStore store, SessionHeader header, List<SessionEvent> log) {
    store.persist(header, log).toCompletableFuture().join();
  }

  /** The failure a completed stage failed with, unwrapped; fails the test when it did not fail. */
  static Throwable failure(CompletionStage<?> stage) {
    CompletableFuture<?> f = stage.toCompletableFuture();
    if (!f.isCompletedExceptionally()) {
      throw new AssertionError("expected a failed stage, got " + f);
    }
    try {
      f.join();
    } catch (CompletionException e) {
      return e.getCause() == null ? e : e.getCause();
    }
    throw new AssertionError("a failed stage joined normally: " + f);
  }

  static Path eventsFile(Path root, String folder) {
    return root.resolve(folder).resolve("events.log");
  }

  /** The lines of an event file, without their newlines; a last line without newline is kept. */
  static List<String> lines(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  /** How many events the well-formed lines of an event file hold. */
  static int storedEvents(Path file) throws IOException {
    int n = 0;
    for (String line : lines(file)) {
      n += Json.parse(line.substring(9)).size();
    }
    return n;
  }
}
