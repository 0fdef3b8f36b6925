package dev.horae.store;

import static dev.horae.store.Logs.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.SessionEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store's due index: a {@code due.json} per folder written after the fsync, fresh while
 * its byte count matches the event file, recomputed from the log otherwise.
 */
class FileDueIndexTest extends DueIndexContract {

  @TempDir Path root;
  private @Nullable FileSessionStore store;

  @Override
  FileSessionStore store() {
    FileSessionStore s = store;
    if (s == null) {
      s = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER);
      store = s;
    }
    return s;
  }

  @Override
  SessionLeases leases(String owner) {
    return store().leases(owner);
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private Path entry(String id) {
    return root.resolve(id).resolve("due.json");
  }

  @Test
  void theEntryFileCarriesTheEventFileLength() throws IOException {
    persist(header("s"), new Reminders.Log().other().create("r", 6_000).events());
    String text = Files.readString(entry("s"), StandardCharsets.UTF_8);
    long bytes = Files.size(root.resolve("s").resolve("events.log"));
    assertThat(text).isEqualTo("{\"bytes\":" + bytes + ",\"length\":2,\"dueAtMs\":6000}");
  }

  @Test
  void aPersistThatLeavesTheDueTimeWritesNoFileAndAReleaseBringsItUpToTheLog() throws IOException {
    Reminders.Log log = new Reminders.Log().create("r", 6_000);
    persist(header("s"), log.events());
    String written = Files.readString(entry("s"), StandardCharsets.UTF_8);
    persist(header("s"), log.other().other().events());
    // the entry file still describes the first persist; the index answers from its table
    assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8)).isEqualTo(written);
    assertThat(index().dueAt("s")).hasValue(6_000);
    // moving the due time writes it
    persist(header("s"), log.create("sooner", 2_000).events());
    assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8)).contains("\"length\":4,\"dueAtMs\":2000");
    persist(header("s"), log.other().events());

    assertThat(store().release("s")).isTrue();
    long bytes = Files.size(root.resolve("s").resolve("events.log"));
    assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8))
        .isEqualTo("{\"bytes\":" + bytes + ",\"length\":5,\"dueAtMs\":2000}");
    store().close();
    try (FileSessionStore reopened = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      assertThat(reopened.dueIndex().orElseThrow().rebuild()).isZero();
      assertThat(reopened.dueIndex().orElseThrow().dueAt("s")).hasValue(2_000);
    }
  }

  @Test
  void missingTornAndStaleEntriesAreRebuiltFromTheLogs() throws IOException {
    List<SessionEvent> staleLog;
    try (FileSessionStore first = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      first.persist(header("fresh"), new Reminders.Log().create("r", 1_000).events()).toCompletableFuture().join();
      first.persist(header("missing"), new Reminders.Log().create("r", 2_000).events()).toCompletableFuture().join();
      first.persist(header("torn"), new Reminders.Log().create("r", 3_000).events()).toCompletableFuture().join();
      Reminders.Log log = new Reminders.Log().create("r", 4_000);
      first.persist(header("stale"), log.events()).toCompletableFuture().join();
      staleLog = log.end("r").create("later", 9_000).events();
    }
    Files.delete(entry("missing"));
    Files.writeString(entry("torn"), "{\"bytes\":", StandardCharsets.UTF_8);
    // a store without an indexer grows the log and leaves the entry behind, as a process that died
    // between a flush's fsync and its entry's write would
    try (FileSessionStore plain = FileSessionStore.open(root, SyncMode.NEVER)) {
      plain.persist(header("stale"), staleLog).toCompletableFuture().join();
    }
    String staleEntry = Files.readString(entry("stale"), StandardCharsets.UTF_8);

    DueIndex index = store().dueIndex().orElseThrow();
    assertThat(index.dueBy(Long.MAX_VALUE, 10)).containsExactly(
        new DueEntry("fresh", 1_000), new DueEntry("missing", 2_000), new DueEntry("torn", 3_000),
        new DueEntry("stale", 9_000));
    assertThat(Files.readString(entry("stale"), StandardCharsets.UTF_8)).isNotEqualTo(staleEntry).contains("9000");
    assertThat(entry("missing")).exists();
    // everything is fresh now
    assertThat(index.rebuild()).isZero();
  }

  @Test
  void aSessionAnotherProcessHoldsIsIndexedFromItsFilesWithoutItsLock() {
    try (FileSessionStore holder = FileSessionStore.open(root, SyncMode.NEVER)) {
      holder.persist(header("held"), new Reminders.Log().create("r", 5_000).events()).toCompletableFuture().join();
      // holder keeps the folder locked; this store indexes it all the same
      assertThat(store().dueIndex().orElseThrow().dueAt("held")).hasValue(5_000);
    }
  }

  @Test
  void aReleasedSessionKeepsItsEntryAndItsNextPersistContinuesIt() {
    Reminders.Log log = new Reminders.Log().create("a", 5_000);
    persist(header("s"), log.events());
    assertThat(store().release("s")).isTrue();
    assertThat(index().dueAt("s")).hasValue(5_000);
    persist(header("s"), log.create("b", 1_000).events());
    assertThat(index().dueAt("s")).hasValue(1_000);
  }

  @Test
  void aStoreWithoutAnIndexerHasNoIndexAndWritesNoEntry() {
    try (FileSessionStore plain = FileSessionStore.open(root.resolve("plain"), SyncMode.NEVER)) {
      plain.persist(header("s"), new Reminders.Log().create("r", 5_000).events()).toCompletableFuture().join();
      assertThat(plain.dueIndex()).isEmpty();
      assertThat(root.resolve("plain").resolve("s").resolve("due.json")).doesNotExist();
    }
  }
}
