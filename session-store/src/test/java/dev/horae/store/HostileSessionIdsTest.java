package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session ids chosen to break out of the store root or to collide: path traversal, absolute
 * paths, separators, NUL, very long ids, unpaired surrogates and case-folding twins. Each is
 * stored inside the root under a name that reads back as the id, or refused with a clear error;
 * a refusal never touches what another session committed.
 */
class HostileSessionIdsTest {

  @TempDir Path dir;

  private static final List<String> HOSTILE = List.of(
      "../x", "..", ".", "../../../../etc/passwd", "/etc/passwd", "/", "a/../../b", "..\\x", "C:\\Windows",
      "\u0000", "x\u0000y", "%2E%2E", "%00", "~", " x", ".hidden", "trailing.", "x\ny", "\ud83d\udd70",
      "con", "a".repeat(255));

  private Path root() {
    return dir.resolve("store");
  }

  @Test
  void traversalAndOddIdsStayInsideTheRootAndReadBack() throws IOException {
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      for (String id : HOSTILE) {
        Logs.persist(store, header(id), log(2));
      }
    }
    // nothing beside the root, and one folder directly under it per id
    try (Stream<Path> beside = Files.list(dir)) {
      assertThat(beside.map(p -> p.getFileName().toString())).containsExactly("store");
    }
    try (Stream<Path> folders = Files.list(root())) {
      assertThat(folders.filter(Files::isDirectory).count()).isEqualTo(HOSTILE.size());
    }
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      assertThat(store.ids()).isEqualTo(Set.copyOf(HOSTILE));
      assertThat(HOSTILE).allSatisfy(id -> assertThat(store.contains(id)).as(id).isTrue());
      assertThat(store.contains("../y")).isFalse();
      assertThat(store.contains("store")).isFalse();
      for (String id : HOSTILE) {
        StoredSession s = store.load(id).orElseThrow();
        assertThat(s.header().id()).isEqualTo(id);
        assertThat(s.events()).isEqualTo(log(2));
      }
    }
  }

  @Test
  void idsThatCannotNameAFolderAreRefusedAndLeaveOtherSessionsAlone() throws IOException {
    String tooLong = "\u00fc".repeat(43); // 43 × 6 = 258 characters encoded
    String huge = "x".repeat(10_000_000);
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      Logs.persist(store, header("good"), log(3));
      byte[] before = Files.readAllBytes(Logs.eventsFile(root(), "good"));
      assertThatThrownBy(() -> store.load(tooLong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("session id is too long for a folder name (258 > 255 characters encoded)");
      assertThatThrownBy(() -> store.load(huge))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("session id is too long for a folder name (10000000 > 255 characters encoded)");
      for (String lone : List.of("a\ud800b", "\udc00", "x\ud83d")) {
        assertThatThrownBy(() -> store.persist(header(lone), log(1)).toCompletableFuture().join())
            .as(lone)
            .isInstanceOf(CompletionException.class)
            .hasCauseInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("session id must not hold an unpaired surrogate");
      }
      assertThatThrownBy(() -> store.persist(header(tooLong), log(1)).toCompletableFuture().join())
          .hasCauseInstanceOf(IllegalArgumentException.class);
      assertThat(store.load("good").orElseThrow().events()).isEqualTo(log(3));
      assertThat(Files.readAllBytes(Logs.eventsFile(root(), "good"))).isEqualTo(before);
      assertThat(store.ids()).containsExactly("good");
      assertThat(store.contains("good")).isTrue();
      for (String never : List.of(tooLong, huge, "a\ud800b", "")) {
        assertThat(store.contains(never)).isFalse();
      }
    }
  }

  @Test
  void caseFoldingTwinsAreRefusedWithAHeaderMismatchNeverMerged() throws IOException {
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      Logs.persist(store, header("Abc"), log(2));
    }
    Path upper = root().resolve("Abc");
    Path lower = root().resolve("abc");
    // on a case-insensitive file system "abc" resolves to the folder of "Abc"; on a
    // case-sensitive one the folder is renamed so "abc" sees exactly what it would see there
    if (!Files.exists(lower)) {
      Files.move(upper, lower);
    }
    byte[] header = Files.readAllBytes(lower.resolve("header.json"));
    byte[] events = Files.readAllBytes(lower.resolve("events.log"));
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      assertThatThrownBy(() -> store.load("abc"))
          .isInstanceOf(SessionStoreException.class)
          .hasMessageEndingWith(" names session Abc, not abc");
    }
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      assertThat(store.persist(header("abc"), log(5)).toCompletableFuture())
          .isCompletedExceptionally();
    }
    assertThat(Files.readAllBytes(lower.resolve("header.json"))).isEqualTo(header);
    assertThat(Files.readAllBytes(lower.resolve("events.log"))).isEqualTo(events);
  }

  @Test
  void theLongestIdThatFitsIsStored() {
    String fits = "\u00fc".repeat(42) + "abc"; // 42 × 6 + 3 = 255
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      Logs.persist(store, header(fits), log(1));
      assertThat(store.load(fits).map(s -> s.header().id())).contains(fits);
    }
    try (FileSessionStore store = FileSessionStore.open(root(), SyncMode.NEVER)) {
      Optional<SessionHeader> h = store.load(fits).map(StoredSession::header);
      assertThat(h.map(SessionHeader::id)).contains(fits);
    }
  }
}
