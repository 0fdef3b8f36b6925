package dev.horae.store;

import static dev.horae.store.Logs.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store's due index at its edges (docs/persistence.md, "The due index", "The log stays the
 * truth"): an entry file is believed only while every field is well formed and its {@code bytes}
 * equal the event file's length; anything else is recomputed from the log; a log that cannot be
 * read is passed over without stopping the others; and an entry file that cannot be written costs
 * nothing but the entry.
 */
class FileDueIndexRulesTest {

  @TempDir Path root;

  private Path entry(String id) {
    return root.resolve(id).resolve("due.json");
  }

  private long eventBytes(String id) throws IOException {
    return Files.size(Logs.eventsFile(root, id));
  }

  /** Writes sessions "s" (due at 5000) and "t" (due at 7000) and closes the store. */
  private void twoSessions() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      store.persist(header("s"), new Reminders.Log().other().create("r", 5_000).events()).toCompletableFuture().join();
      store.persist(header("t"), new Reminders.Log().create("r", 7_000).events()).toCompletableFuture().join();
    }
  }

  @Test
  void aFreshEntryIsBelievedWithoutReadingTheLog() throws IOException {
    twoSessions();
    // an entry whose bytes match the event file is taken as it is: only a stat, no read of the log
    Files.writeString(entry("s"), "{\"bytes\":" + eventBytes("s") + ",\"length\":2,\"dueAtMs\":42}", StandardCharsets.UTF_8);
    Files.writeString(entry("t"), "{\"bytes\":" + eventBytes("t") + ",\"length\":1,\"dueAtMs\":null}", StandardCharsets.UTF_8);
    int fed = Reminders.FED.get();
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      DueIndex index = store.dueIndex().orElseThrow();
      assertThat(index.dueAt("s")).hasValue(42);
      assertThat(index.dueAt("t")).isEmpty();
      assertThat(index.dueBy(Long.MAX_VALUE, 10)).containsExactly(new DueEntry("s", 42));
      assertThat(index.rebuild()).isZero();
    }
    assertThat(Reminders.FED.get()).isEqualTo(fed);
  }

  @Test
  void anEntryWithAnyFieldMissingOrOfTheWrongKindIsRecomputedFromTheLog() throws IOException {
    List<String> broken = List.of(
        "{\"bytes\":\"%d\",\"length\":2,\"dueAtMs\":42}",
        "{\"length\":2,\"dueAtMs\":42}",
        "{\"bytes\":%d,\"dueAtMs\":42}",
        "{\"bytes\":%d,\"length\":\"two\",\"dueAtMs\":42}",
        "{\"bytes\":%d,\"length\":2}",
        "{\"bytes\":%d,\"length\":2,\"dueAtMs\":\"soon\"}",
        "[1,2,3]",
        "not json");
    twoSessions();
    for (String shape : broken) {
      String text = shape.contains("%d") ? String.format(shape, eventBytes("s")) : shape;
      Files.writeString(entry("s"), text, StandardCharsets.UTF_8);
      try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
        DueIndex index = store.dueIndex().orElseThrow();
        assertThat(index.dueAt("s")).as(text).hasValue(5_000);
        assertThat(index.dueAt("t")).as(text).hasValue(7_000);
      }
      // the recomputed entry replaced the broken one
      assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8)).as(text)
          .isEqualTo("{\"bytes\":" + eventBytes("s") + ",\"length\":2,\"dueAtMs\":5000}");
    }
  }

  @Test
  void anEntryOfAnotherByteCountIsStaleWhateverItSays() throws IOException {
    twoSessions();
    for (long off : new long[] {-1, 1}) {
      Files.writeString(entry("s"), "{\"bytes\":" + (eventBytes("s") + off) + ",\"length\":2,\"dueAtMs\":42}",
          StandardCharsets.UTF_8);
      try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
        DueIndex index = store.dueIndex().orElseThrow();
        assertThat(index.rebuild()).as("bytes off by %d", off).isEqualTo(1);
        assertThat(index.dueAt("s")).hasValue(5_000);
      }
    }
  }

  @Test
  void theFirstReadLoadsTheIndexAndCountsWhatItRecomputed() throws IOException {
    twoSessions();
    Files.delete(entry("s"));
    Files.delete(entry("t"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      DueIndex index = store.dueIndex().orElseThrow();
      // each kind of read loads the index before answering
      assertThat(index.earliest()).hasValue(5_000);
    }
    Files.delete(entry("s"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      assertThat(store.dueIndex().orElseThrow().dueBy(6_000, 10)).containsExactly(new DueEntry("s", 5_000));
    }
    Files.delete(entry("t"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      DueIndex index = store.dueIndex().orElseThrow();
      assertThat(index.dueAt("t")).hasValue(7_000);
      assertThat(index.rebuild()).isZero();
    }
    Files.delete(entry("s"));
    Files.delete(entry("t"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      assertThat(store.dueIndex().orElseThrow().rebuild()).isEqualTo(2);
    }
  }

  @Test
  void aSessionWhoseLogIsCorruptIsPassedOverAndTheOthersAreIndexed() throws IOException {
    twoSessions();
    Files.delete(entry("s"));
    // damage the only line, then add a good-looking second line so the damage is not a torn tail
    Path events = Logs.eventsFile(root, "s");
    List<String> lines = Logs.lines(events);
    String bad = lines.get(0).replace("chatter", "chatty!");
    Files.writeString(events, bad + "\n" + lines.get(0) + "\n", StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      DueIndex index = store.dueIndex().orElseThrow();
      assertThat(index.dueBy(Long.MAX_VALUE, 10)).containsExactly(new DueEntry("t", 7_000));
      assertThat(index.dueAt("s")).isEmpty();
      // nothing was written for it, so the next rebuild tries it again
      assertThat(entry("s")).doesNotExist();
      assertThat(index.rebuild()).isZero();
    }
  }

  @Test
  void aSessionWithoutEventsIsIndexedAsNotDue() throws IOException {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      store.persist(header("empty"), List.of()).toCompletableFuture().join();
    }
    Files.deleteIfExists(entry("empty"));
    Files.deleteIfExists(Logs.eventsFile(root, "empty"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      DueIndex index = store.dueIndex().orElseThrow();
      assertThat(index.rebuild()).isEqualTo(1);
      assertThat(index.dueAt("empty")).isEmpty();
      assertThat(index.earliest()).isEmpty();
    }
    // an event file that does not exist counts as zero bytes, so the entry written for it is fresh
    assertThat(Files.readString(entry("empty"), StandardCharsets.UTF_8))
        .isEqualTo("{\"bytes\":0,\"length\":0,\"dueAtMs\":null}");
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      assertThat(store.dueIndex().orElseThrow().rebuild()).isZero();
    }
  }

  @Test
  void anEntryFileThatCannotBeWrittenLeavesThePersistDurableAndNoTemporaryFile() throws IOException {
    // a directory where the entry file belongs: the rename over it fails
    Files.createDirectories(entry("s").resolve("blocker"));
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      Reminders.Log log = new Reminders.Log().create("r", 5_000);
      store.persist(header("s"), log.events()).toCompletableFuture().join();
      assertThat(store.dueIndex().orElseThrow().dueAt("s")).hasValue(5_000);
      store.persist(header("s"), log.create("sooner", 1_000).events()).toCompletableFuture().join();
      assertThat(store.dueIndex().orElseThrow().dueAt("s")).hasValue(1_000);
      assertThat(store.load("s").orElseThrow().events()).hasSize(2);
    }
    try (Stream<Path> files = Files.list(root.resolve("s"))) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
    }
  }

  @Test
  void aReleaseAfterPersistsThatLeftTheDueTimeRewritesTheEntryAndOnlyThen() throws IOException {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER, Reminders.INDEXER)) {
      Reminders.Log log = new Reminders.Log().create("r", 5_000);
      store.persist(header("s"), log.events()).toCompletableFuture().join();
      String first = Files.readString(entry("s"), StandardCharsets.UTF_8);
      // a release with the entry file up to date leaves it as it is
      Files.writeString(entry("s"), first + " ", StandardCharsets.UTF_8);
      assertThat(store.release("s")).isTrue();
      assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8)).isEqualTo(first + " ");

      // reopened: the first persist of the session in this store writes its entry again
      store.persist(header("s"), log.other().events()).toCompletableFuture().join();
      assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8))
          .isEqualTo("{\"bytes\":" + eventBytes("s") + ",\"length\":2,\"dueAtMs\":5000}");
      store.persist(header("s"), log.other().events()).toCompletableFuture().join();
      assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8)).contains("\"length\":2,");
    }
    // the store's close brings it up to the log, as a release does
    assertThat(Files.readString(entry("s"), StandardCharsets.UTF_8))
        .isEqualTo("{\"bytes\":" + eventBytes("s") + ",\"length\":3,\"dueAtMs\":5000}");
  }
}
