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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file read in two halves at once answers as one reader does — events, good length, torn tail,
 * or the corruption's line, seq and text — wherever the second half begins and whatever bad lines
 * stand on either side of the split, at it, or as the torn last line.
 */
@Timeout(120)
class LogScannerSplitTest {

  @TempDir Path dir;

  // the JSON of a line holding events from seq; the bad forms keep a good checksum
  private static String json(int form, long seq) {
    return switch (form) {
      case 0 -> "[" + event(seq) + "]";
      case 1 -> "[" + event(seq) + "," + event(seq + 1) + "]";
      case 2 -> "[" + event(seq);
      case 3 -> "[" + event(seq) + ",{\"seq\":" + (seq + 1) + ",\"data\":[1,}]";
      case 4 -> "[" + event(seq + 5) + "]";
      case 5 -> "[" + event(0) + "]";
      case 6 -> "[" + event(seq) + "," + event(seq + 3) + "]";
      default -> "[]";
    };
  }

  private static int events(int form) {
    return form == 1 ? 2 : form == 0 ? 1 : 0;
  }

  /** The offset of every line's start but the first, in a file's bytes. */
  private static List<Integer> lineStarts(byte[] bytes) {
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < bytes.length - 1; i++) {
      if (bytes[i] == '\n') {
        starts.add(i + 1);
      }
    }
    return starts;
  }

  @Test
  void everySplitOfRandomFilesAnswersAsOneReader() throws IOException {
    Random random = new Random(19);
    int splits = 0;
    for (int round = 0; round < 80; round++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long seq = 0;
      int lines = 2 + random.nextInt(12);
      for (int i = 0; i < lines; i++) {
        // mostly good lines; a bad one anywhere (a split may fall just before or after it)
        int form = random.nextInt(5) == 0 ? 2 + random.nextInt(6) : random.nextInt(2);
        line(out, json(form, seq));
        seq += events(form);
      }
      if (random.nextInt(3) == 0) {
        out.writeBytes("0badc0de [".getBytes(StandardCharsets.US_ASCII));
      }
      byte[] bytes = out.toByteArray();
      Path file = dir.resolve("events-" + round + ".jsonl");
      Files.write(file, bytes);
      String one = outcome(file, f -> LogScanner.scan(f, false));
      for (int second : lineStarts(bytes)) {
        assertThat(outcome(file, f -> LogScanner.scanSplit(f, second)))
            .as("round %d, second half from byte %d", round, second).isEqualTo(one);
        splits++;
      }
    }
    assertThat(splits).isGreaterThan(400);
  }

  @Test
  void aLongFileIsReadByTwoThreadsWithTheAnswerOfOne() throws IOException {
    long splitAt = 64 << 10;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long seq = 0;
    while (out.size() < splitAt + 4096) {
      line(out, "[" + event(seq) + "]");
      seq++;
    }
    out.writeBytes("0badc0de [".getBytes(StandardCharsets.US_ASCII));
    byte[] bytes = out.toByteArray();
    Path file = dir.resolve("long.jsonl");
    Files.write(file, bytes);
    boolean twoCores = Runtime.getRuntime().availableProcessors() > 1;
    LogScanner.Scan scan = LogScanner.scan(file, splitAt);
    assertThat(scan.readers()).isEqualTo(twoCores ? 2 : 1);
    assertThat(scan.events()).hasSize((int) seq);
    assertThat(scan.torn()).hasValueSatisfying(t -> assertThat(t.why()).isEqualTo("no final newline"));
    assertThat(outcome(file, f -> LogScanner.scan(f, splitAt))).isEqualTo(outcome(file, f -> LogScanner.scan(f, false)));
    // from exactly the threshold on, not below it
    Path shorter = dir.resolve("shorter.jsonl");
    Files.write(shorter, Arrays.copyOf(bytes, (int) splitAt));
    assertThat(LogScanner.scan(shorter, splitAt).readers()).isEqualTo(twoCores ? 2 : 1);
    Files.write(shorter, Arrays.copyOf(bytes, (int) splitAt - 1));
    assertThat(LogScanner.scan(shorter, splitAt).readers()).isEqualTo(1);
    // the production threshold: a long log, about 80,000 events
    assertThat(LogScanner.SPLIT_AT).isEqualTo(16L << 20);
  }

  @Test
  void theSecondHalfStartsAtTheFirstLineAfterTheMiddleHoweverFarThatIs() throws IOException {
    boolean twoCores = Runtime.getRuntime().availableProcessors() > 1;
    String big = "x".repeat(300 << 10);
    // the middle falls inside a line longer than one probe: the next line starts the second half
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    line(out, "[" + event(0) + "]");
    line(out, "[{\"seq\":1,\"type\":\"t\",\"time\":1,\"data\":\"" + big + "\"}]");
    for (int seq = 2; seq < 40; seq++) {
      line(out, "[" + event(seq) + "]");
    }
    Path file = dir.resolve("middle-in-a-long-line.jsonl");
    Files.write(file, out.toByteArray());
    LogScanner.Scan split = LogScanner.scan(file, 1024);
    assertThat(split.readers()).isEqualTo(twoCores ? 2 : 1);
    assertThat(split.events()).hasSize(40);
    assertThat(outcome(file, f -> LogScanner.scan(f, 1024))).isEqualTo(outcome(file, f -> LogScanner.scan(f, false)));
    // no line starts after the middle (the newline there ends the file): one reader reads it
    ByteArrayOutputStream last = new ByteArrayOutputStream();
    for (int seq = 0; seq < 40; seq++) {
      line(last, "[" + event(seq) + "]");
    }
    line(last, "[{\"seq\":40,\"type\":\"t\",\"time\":1,\"data\":\"" + big + "\"}]");
    Files.write(file, last.toByteArray());
    LogScanner.Scan one = LogScanner.scan(file, 1024);
    assertThat(one.readers()).isEqualTo(1);
    assertThat(one.events()).hasSize(41);
    assertThat(one.torn()).isEmpty();
  }
}
