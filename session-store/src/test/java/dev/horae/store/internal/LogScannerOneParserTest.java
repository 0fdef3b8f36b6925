package dev.horae.store.internal;

import static dev.horae.store.internal.ScanFiles.event;
import static dev.horae.store.internal.ScanFiles.line;
import static dev.horae.store.internal.ScanFiles.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan reads a buffer's good lines with one parser: its answer — events, good length, torn
 * tail, or the corruption's line, seq and text — is the one of a scan that reads each line on its
 * own, whatever bad lines (with good checksums, so their JSON is read) stand among them.
 */
class LogScannerOneParserTest {

  @TempDir Path dir;

  // the JSON of a line holding events from seq; the bad forms keep a good checksum
  private static String json(int form, long seq) {
    return switch (form) {
      case 0 -> "[" + event(seq) + "]";
      case 1 -> "[" + event(seq) + "," + event(seq + 1) + "]";
      case 2 -> " [ " + event(seq) + " ]\t";
      case 3 -> "[" + event(seq);
      case 4 -> "]";
      case 5 -> "[" + event(seq) + "] x";
      case 6 -> "[" + event(seq) + "] [" + event(seq + 1) + "]";
      case 7 -> "[]";
      case 8 -> "[{\"seq\":" + seq + ",\"type\":\"t\",\"time\":1,\"data\":\"abc";
      case 9 -> "[{\"seq\":\"x\",\"type\":\"t\",\"time\":1,\"data\":1}]";
      case 10 -> "[" + event(seq + 5) + "]";
      default -> "[" + event(seq) + ",{\"seq\":" + (seq + 1) + ",\"data\":[1,}]";
    };
  }

  private static int events(int form) {
    return form == 1 ? 2 : form == 0 || form == 2 ? 1 : 0;
  }

  @Test
  void oneParserPerBufferAnswersAsOneParserPerLine() throws IOException {
    Random random = new Random(4);
    for (int round = 0; round < 200; round++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long seq = 0;
      int lines = 1 + random.nextInt(30);
      for (int i = 0; i < lines; i++) {
        // mostly good lines; a bad one anywhere, or as the torn last line
        int form = random.nextInt(lines == i + 1 ? 3 : 8) == 0 ? 3 + random.nextInt(9) : random.nextInt(3);
        line(out, json(form, seq));
        seq += events(form);
      }
      if (random.nextInt(4) == 0) {
        out.writeBytes("0badc0de [".getBytes(StandardCharsets.US_ASCII));
      }
      Path file = dir.resolve("events-" + round + ".jsonl");
      Files.write(file, out.toByteArray());
      assertThat(outcome(file, f -> LogScanner.scan(f, true))).as("round %d", round).isEqualTo(outcome(file, f -> LogScanner.scan(f, false)));
    }
  }

  @Test
  void linesAcrossManyBuffersAndALineLongerThanOneReadTheSame() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long seq = 0;
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < (3 << 19); i++) {
      big.append((char) ('a' + i % 26));
    }
    for (int i = 0; i < 30_000; i++) {
      if (i == 12_345) {
        // longer than the scanner's 1 MiB read: the buffer doubles while the line is read
        line(out, "[{\"seq\":" + seq + ",\"type\":\"t\",\"time\":1,\"data\":\"" + big + "\"}]");
        seq++;
        continue;
      }
      line(out, "[" + event(seq) + "]");
      seq++;
    }
    Path file = dir.resolve("long.jsonl");
    Files.write(file, out.toByteArray());
    LogScanner.Scan scan = LogScanner.scan(file, true);
    assertThat(scan.events()).hasSize(30_000);
    assertThat(scan.torn()).isEmpty();
    assertThat(outcome(file, f -> LogScanner.scan(f, true))).isEqualTo(outcome(file, f -> LogScanner.scan(f, false)));
    // and the same file with a bad line deep inside fails at that line either way
    line(out, "[" + event(seq));
    line(out, "[" + event(seq) + "]");
    Files.write(file, out.toByteArray());
    assertThat(outcome(file, f -> LogScanner.scan(f, true))).startsWith("30001 30000 commit log corrupt at line 30001: unparsable JSON")
        .isEqualTo(outcome(file, f -> LogScanner.scan(f, false)));
  }
}
