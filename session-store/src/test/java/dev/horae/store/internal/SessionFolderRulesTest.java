package dev.horae.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.SessionStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session folder's rules at its edges (docs/persistence.md, the file store): a closed folder
 * refuses every read and write (a persist in flight when its session is released fails instead of
 * writing to a file another process may now hold), and an unlocked read ({@code peek}) finds no
 * session in a folder whose creation was never committed, an empty log where no event was ever
 * written, and refuses a header that names another session.
 */
class SessionFolderRulesTest {

  @TempDir Path root;

  private static SessionHeader header(String id) {
    return SessionHeader.root(id, 1_700_000_000_000L, Optional.empty());
  }

  private static List<SessionEvent> log(int size) {
    List<SessionEvent> log = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ObjectNode d = Json.mapper().createObjectNode();
      d.put("n", i);
      log.add(SessionEvent.of(i, "test/event", 1_700_000_000_000L + i, d));
    }
    return List.copyOf(log);
  }

  @Test
  void aClosedFolderRefusesReadsAndWrites() throws IOException {
    SessionFolder folder = SessionFolder.open(root, "s", Forcer.NONE);
    folder.persist(header("s"), log(2));
    assertThat(folder.load().orElseThrow().events()).isEqualTo(log(2));
    long bytes = Files.size(root.resolve("s").resolve(SessionFolder.EVENTS_FILE));
    folder.close();
    folder.close();

    assertThatThrownBy(folder::load).isInstanceOf(SessionStoreException.class).hasMessage("session s is closed in this store");
    assertThatThrownBy(() -> folder.persist(header("s"), log(3)))
        .isInstanceOf(SessionStoreException.class).hasMessage("session s is closed in this store");
    assertThat(Files.size(root.resolve("s").resolve(SessionFolder.EVENTS_FILE))).isEqualTo(bytes);
    // the lock went with the close: the folder opens again
    try (SessionFolder again = SessionFolder.open(root, "s", Forcer.NONE)) {
      assertThat(again.load().orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void peekFindsNoSessionWhereNoneWasCommitted() throws IOException {
    assertThat(SessionFolder.peek(root, "absent")).isEmpty();
    // a first flush that was killed before its header: events, but no committed session
    Path ghost = Files.createDirectories(root.resolve("ghost"));
    Files.writeString(ghost.resolve(SessionFolder.EVENTS_FILE), "deadbeef [{}]\n", StandardCharsets.UTF_8);
    assertThat(SessionFolder.peek(root, "ghost")).isEmpty();
  }

  @Test
  void peekReadsAHeaderWithoutAnEventFileAsAnEmptyLog() throws IOException {
    try (SessionFolder folder = SessionFolder.open(root, "s", Forcer.NONE)) {
      folder.persist(header("s"), List.of());
    }
    Files.delete(root.resolve("s").resolve(SessionFolder.EVENTS_FILE));
    assertThat(SessionFolder.peek(root, "s")).hasValueSatisfying(s -> {
      assertThat(s.header()).isEqualTo(header("s"));
      assertThat(s.events()).isEmpty();
    });
  }

  @Test
  void peekRefusesAHeaderThatNamesAnotherSession() throws IOException {
    try (SessionFolder folder = SessionFolder.open(root, "a", Forcer.NONE)) {
      folder.persist(header("a"), log(1));
    }
    Files.createDirectories(root.resolve("b"));
    Files.copy(root.resolve("a").resolve(HeaderFile.FILE_NAME), root.resolve("b").resolve(HeaderFile.FILE_NAME));
    assertThatThrownBy(() -> SessionFolder.peek(root, "b"))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session header " + root.resolve("b").resolve(HeaderFile.FILE_NAME) + " names session a, not b");
  }
}
