package dev.horae.store;

import static dev.horae.store.Logs.nested;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payloads the writer takes but the parser would refuse when the session is read again — a
 * string over 20 000 000 characters, nesting deeper than the parser's 1000 levels (or too deep for
 * the stack), a member name over 50 000 characters. Before the fix a 25 MB tool argument was
 * persisted and acknowledged, and the next open dropped its line as a torn tail. Now the append is
 * refused with a clear error, the log and every earlier flush stay as they were, and a store given
 * such an event by another host refuses the persist instead of acknowledging it.
 */
class HostilePayloadTest {

  @TempDir Path root;

  private static List<JsonNode> hostile() {
    ObjectNode huge = JsonNodeFactory.instance.objectNode();
    huge.put("arguments", "x".repeat(20_000_001));
    ObjectNode longName = JsonNodeFactory.instance.objectNode();
    longName.put("k".repeat(50_001), 1);
    return List.of(huge, longName, nested(999), nested(200_000));
  }

  @Test
  void anAppendTheStoreCouldNotReadBackIsRefusedAndTheLogStaysFlushable() {
    String id;
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      LogSessions sessions = LogSessions.over(store, () -> Instant.EPOCH, (m, e) -> { });
      Session s = sessions.create(CreateOptions.DEFAULT);
      id = s.id();
      s.append("user/message", Json.parse("{\"text\":\"before\"}"));
      assertThat(sessions.flush(s).toCompletableFuture().join()).isTrue();
      for (JsonNode data : hostile()) {
        assertThatThrownBy(() -> s.append("user/message", data))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("JSON value cannot be stored and read back: ");
        assertThat(s.length()).isEqualTo(1);
      }
      // the deepest data a stored line can hold
      s.append("user/message", nested(998));
      s.append("user/message", Json.parse("{\"text\":\"after\"}"));
      assertThat(sessions.flush(s).toCompletableFuture().join()).isTrue();
    }
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      List<SessionEvent> events = store.load(id).orElseThrow().events();
      assertThat(events).hasSize(3);
      assertThat(events.get(1).data()).isEqualTo(nested(998));
    }
  }

  @Test
  void theFileStoreRefusesToAcknowledgeALineItCouldNotReadBack() throws Exception {
    SessionHeader header = Logs.header("s");
    List<SessionEvent> log = new ArrayList<>(Logs.log(2));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      Logs.persist(store, header, log);
      byte[] before = Files.readAllBytes(Logs.eventsFile(root, "s"));
      List<JsonNode> hostile = hostile();
      // the string, the name and the 200,000 levels; the 999 levels below
      for (JsonNode data : List.of(hostile.get(0), hostile.get(1), hostile.get(3))) {
        // an event cannot even be built with a payload the parser would not read on its own
        assertThatThrownBy(() -> SessionEvent.of(2, "test/event", 0, data))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("JSON value cannot be stored and read back: ");
      }
      // what an event holds but a stored line cannot: the line's array and event object add two levels
      for (JsonNode data : List.of(nested(999), nested(1000))) {
        List<SessionEvent> longer = new ArrayList<>(log);
        longer.add(SessionEvent.of(2, "test/event", 0, data));
        assertThatThrownBy(() -> store.persist(header, longer).toCompletableFuture().join())
            .isInstanceOf(CompletionException.class)
            .hasCauseInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("JSON value cannot be stored and read back: ");
        assertThat(Files.readAllBytes(Logs.eventsFile(root, "s"))).isEqualTo(before);
      }
      log.add(SessionEvent.of(2, "test/event", 0, Json.parse("{}")));
      Logs.persist(store, header, log);
    }
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log);
    }
    SessionHeader hugeCwd = new SessionHeader(1, "t", 0, Optional.of("/".repeat(20_000_001)), Optional.empty(), 0,
        Optional.empty(), java.util.OptionalInt.empty(), Optional.empty(), Optional.empty());
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThat(store.persist(hugeCwd, Logs.log(1)).toCompletableFuture()).isCompletedExceptionally();
      assertThat(store.ids()).containsExactly("s");
    }
  }
}
