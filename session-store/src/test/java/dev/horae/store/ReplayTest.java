package dev.horae.store;

import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.persist;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.frame.LineFrame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay reads the event file in large chunks and decodes each line where it lies: lines that
 * straddle a chunk, a line longer than a chunk, and a line whose checksum holds but whose bytes are
 * not UTF-8 must all read exactly as the writer meant (docs/persistence.md, the framed lines).
 */
@Timeout(60)
class ReplayTest {

  private static final int MIB = 1 << 20;

  @TempDir Path root;

  private static SessionEvent sized(long seq, int textBytes) {
    ObjectNode data = Json.mapper().createObjectNode();
    data.put("n", Math.toIntExact(seq));
    data.put("text", "x".repeat(textBytes) + "é" + seq);
    return SessionEvent.of(seq, "test/event", 1_700_000_000_000L + seq, data);
  }

  @Test
  void linesAcrossChunkBoundariesAndALineLongerThanAChunkReadBackExactly() {
    List<SessionEvent> log = new ArrayList<>();
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      // odd sizes so line ends fall everywhere within the 1 MiB chunks, then one 2.5 MiB line
      for (int i = 0; i < 300; i++) {
        log.add(sized(i, 7_919 + 13 * i));
        persist(store, header("s"), log);
      }
      log.add(sized(300, 5 * MIB / 2));
      persist(store, header("s"), log);
      log.add(sized(301, 10));
      persist(store, header("s"), log);
    }
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log);
    }
  }

  @Test
  void aWellFramedLineOfBytesThatAreNotUtf8IsNotReadAsText() throws Exception {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      persist(store, header("s"), Logs.log(2));
    }
    Path file = Logs.eventsFile(root, "s");
    long good = Files.size(file);
    byte[] json = "[{\"seq\":2,\"type\":\"test/event\",\"time\":1,\"data\":\"\u00ff\"}]".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(file, framed(json), StandardOpenOption.APPEND);

    // as the last line it is a torn tail: cut off, the acknowledged events stay
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(Logs.log(2));
    }
    assertThat(Files.size(file)).isEqualTo(good);

    // with a good line after it, it is corruption: the open fails instead of guessing
    Files.write(file, framed(json), StandardOpenOption.APPEND);
    Files.write(file, LineFrame.encode(Logs.log(3).subList(2, 3)), StandardOpenOption.APPEND);
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThatThrownBy(() -> store.load("s")).isInstanceOf(CommitLogCorruptException.class)
          .hasMessageContaining("unparsable JSON");
    }
  }

  @Test
  void aChecksumInCapitalsMatchesNoLine() {
    // the first of these lines whose checksum has a hex letter (most do): written in capitals
    for (int time = 1; time < 100; time++) {
      byte[] line = framed(("[{\"seq\":0,\"type\":\"t\",\"time\":" + time + ",\"data\":{}}]").getBytes(StandardCharsets.UTF_8));
      String crc = new String(line, 0, 8, StandardCharsets.US_ASCII);
      if (crc.chars().anyMatch(Character::isLetter)) {
        assertThat(LineFrame.decode(line, line.length - 1, 0)).isInstanceOf(dev.horae.store.internal.frame.LineResult.Good.class);
        System.arraycopy(crc.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII), 0, line, 0, 8);
        assertThat(LineFrame.decode(line, line.length - 1, 0)).isInstanceOf(dev.horae.store.internal.frame.LineResult.BadFrame.class);
        return;
      }
    }
    throw new AssertionError("no checksum with a letter among 99 lines");
  }

  private static byte[] framed(byte[] json) {
    CRC32C crc = new CRC32C();
    crc.update(json, 0, json.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(String.format("%08x ", crc.getValue()).getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(json);
    out.write('\n');
    return out.toByteArray();
  }
}
