package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.frame.LineFrame;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damage anywhere but the last line is corruption: the open fails loudly and truncates nothing. */
class CorruptionTest {

  @TempDir Path root;
  private Path file;

  @BeforeEach
  void threeFlushes() {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(4));
      persist(store, header("s"), log(5));
    }
    file = Logs.eventsFile(root, "s");
  }

  private void rewriteLine(int index, String text) throws Exception {
    List<String> lines = Logs.lines(file);
    lines.set(index, text);
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  @Test
  void aBadChecksumInTheMiddleNamesFileLineAndSeq() throws Exception {
    String second = Logs.lines(file).get(1);
    rewriteLine(1, second.replace("event 3", "event 9"));
    long size = Files.size(file);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOfSatisfying(CommitLogCorruptException.class, e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.seq()).isEqualTo(2);
            assertThat(e.file()).isEqualTo(file);
          })
          .hasMessageStartingWith("commit log corrupt at line 2: crc mismatch (stored ")
          .hasMessageEndingWith("(file " + file + ", seq 2)");
    }
    assertThat(Files.size(file)).isEqualTo(size);
  }

  @Test
  void aBadFirstLineIsCorruptionToo() throws Exception {
    rewriteLine(0, "not a frame");
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOf(CommitLogCorruptException.class)
          .hasMessage("commit log corrupt at line 1: malformed frame (expected \"<crc32c> <json>\") (file " + file + ", seq 0)");
    }
  }

  @Test
  void anEmptyLineInTheMiddleIsCorruption() throws Exception {
    List<String> lines = Logs.lines(file);
    Files.writeString(file, lines.get(0) + "\n\n" + lines.get(1) + "\n", StandardCharsets.UTF_8);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .hasMessage("commit log corrupt at line 2: empty line (file " + file + ", seq 2)");
    }
  }

  @Test
  void aWellFramedLineThatSkipsSeqsIsCorruptionEvenLast() throws Exception {
    List<SessionEvent> skipping = log(9).subList(7, 9);
    Files.write(file, LineFrame.encode(skipping), StandardOpenOption.APPEND);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOf(CommitLogCorruptException.class)
          .hasMessage("commit log corrupt at line 4: seq gap: expected seq 5, found 7 (file " + file + ", seq 5)");
    }
  }

  @Test
  void aValidChecksumOverABadEventIsCorruptionInTheMiddle() throws Exception {
    String json = "[{\"seq\":2,\"type\":\"t\"}]";
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    rewriteLine(1, LineFrame.crcHex(bytes, 0, bytes.length) + " " + json);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .hasMessage("commit log corrupt at line 2: bad event at seq 2: event member \"time\" must be an integer (file "
              + file + ", seq 2)");
    }
  }

  @Test
  void aHeaderClaimingMoreSeedThanStoredIsRefused() throws Exception {
    Files.writeString(root.resolve("s").resolve("header.json"),
        header("s").forkChild("s", 1, 9).toJson().toString());
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThatThrownBy(() -> store.load("s"))
          .isInstanceOf(SessionStoreException.class)
          .hasMessage("session s has seedLength 9 but its log " + file + " holds only 5 events");
    }
  }
}
