package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.frame.LineFrame;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A torn last line is an unacknowledged flush: it is dropped with a warning and cut off. */
class TornTailTest {

  @TempDir Path root;

  private Path file() {
    return Logs.eventsFile(root, "s");
  }

  /** Three acknowledged flushes: seqs 0..1, 2..3, 4. */
  private long storeThreeFlushes() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root)) {
      persist(store, header("s"), log(2));
      persist(store, header("s"), log(4));
      persist(store, header("s"), log(5));
    }
    return Files.size(file());
  }

  private void appendRaw(byte[] bytes) throws Exception {
    Files.write(file(), bytes, StandardOpenOption.APPEND);
  }

  private static byte[] nextFlush() {
    List<SessionEvent> events = log(8).subList(5, 8);
    return LineFrame.encode(events);
  }

  @ParameterizedTest(name = "cut after {0} bytes")
  @ValueSource(ints = {1, 8, 9, 20, 60})
  void aLineWithoutNewlineIsCutOffWithAWarning(int keep) throws Exception {
    long good = storeThreeFlushes();
    appendRaw(Arrays.copyOf(nextFlush(), keep));
    String warning;
    try (FileSessionStore store = FileSessionStore.open(root)) {
      warning = stderrOf(() -> assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5)));
      assertThat(Files.size(file())).isEqualTo(good);
    }
    assertThat(warning)
        .contains("WARN")
        .contains("Dropping the torn last line 4 of " + file())
        .contains(keep + " bytes: no final newline")
        .contains("never acknowledged");
  }

  @Test
  void aWholeLineWithABadChecksumIsTorn() throws Exception {
    long good = storeThreeFlushes();
    byte[] line = nextFlush();
    line[30] = (byte) (line[30] == '1' ? '2' : '1');
    appendRaw(line);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5));
    }
    assertThat(Files.size(file())).isEqualTo(good);
  }

  @Test
  void aZeroFilledTailIsTorn() throws Exception {
    long good = storeThreeFlushes();
    appendRaw(new byte[4096]);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(5));
    }
    assertThat(Files.size(file())).isEqualTo(good);
  }

  @Test
  void theTornTailIsGoneBeforeTheNextWrite() throws Exception {
    storeThreeFlushes();
    appendRaw(Arrays.copyOf(nextFlush(), 40));
    try (FileSessionStore store = FileSessionStore.open(root)) {
      // the first touch is a persist, not a load: repair still happens first
      persist(store, header("s"), log(9));
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(9));
    }
    List<String> lines = Logs.lines(file());
    assertThat(lines).hasSize(4);
    assertThat(Files.readString(file(), StandardCharsets.UTF_8)).endsWith("\n");
  }

  private static String stderrOf(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
