package dev.horae.store.internal;

import dev.horae.spi.session.SessionEvent;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.internal.frame.LineFrame;
import dev.horae.store.internal.frame.LineResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Replays an event file. Every line must decode and continue the seqs; the only bad line tolerated
 * is the last one (no final newline, bad checksum, unparsable): that is a torn write of a flush
 * that was never acknowledged, reported so the caller can cut it off. A bad line with anything
 * after it, or a well-framed line whose seqs do not continue the log, is corruption.
 */
final class LogScanner {

  private static final int CHUNK = 1 << 20;

  private LogScanner() {}

  /**
   * A torn last line.
   *
   * @param line its 1-based number
   * @param bytes its length in bytes, newline included if any
   * @param why what is wrong with it
   */
  record Torn(long line, long bytes, String why) {}

  /**
   * The replay of an event file.
   *
   * @param events the good events, contiguous from seq 0
   * @param goodBytes length of the good prefix: where a torn tail must be cut
   * @param torn the torn last line, if any
   */
  record Scan(List<SessionEvent> events, long goodBytes, Optional<Torn> torn) {}

  /** A bad line not yet known to be last. */
  private record Pending(long line, long start, long bytes, long seq, String why) {}

  /**
   * Replays a file.
   *
   * @param file the event file
   * @return the good events and the torn tail
   * @throws CommitLogCorruptException when a line other than the last is bad, or any line breaks
   *     the seqs
   * @throws IOException when the file cannot be read
   */
  static Scan scan(Path file) throws IOException {
    List<SessionEvent> events = new ArrayList<>();
    // lines are decoded where they were read: no byte is copied into a line buffer first
    byte[] buffer = new byte[CHUNK];
    int start = 0;
    int filled = 0;
    int searched = 0;
    long lineNumber = 0;
    long lineStart = 0;
    Pending pending = null;
    try (InputStream in = Files.newInputStream(file)) {
      while (true) {
        int newline;
        while ((newline = indexOfNewline(buffer, start + searched, filled)) >= 0) {
          int length = newline - start;
          lineNumber++;
          if (pending != null) {
            throw corrupt(file, pending);
          }
          long seq = events.size();
          LineResult result = LineFrame.decode(buffer, start, length, seq);
          if (result instanceof LineResult.Good good) {
            events.addAll(good.events());
          } else if (result instanceof LineResult.SeqGap gap) {
            throw new CommitLogCorruptException(
                file, lineNumber, seq, "seq gap: expected seq " + gap.expected() + ", found " + gap.found());
          } else {
            pending = new Pending(lineNumber, lineStart, length + 1L, seq, ((LineResult.BadFrame) result).why());
          }
          lineStart += length + 1L;
          start = newline + 1;
          searched = 0;
        }
        // the unfinished line moves to the front; a line longer than the buffer doubles it
        searched = filled - start;
        System.arraycopy(buffer, start, buffer, 0, filled - start);
        filled -= start;
        start = 0;
        if (filled == buffer.length) {
          buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int n = in.read(buffer, filled, buffer.length - filled);
        if (n < 0) {
          break;
        }
        filled += n;
      }
    }
    if (filled > 0) {
      lineNumber++;
      if (pending != null) {
        throw corrupt(file, pending);
      }
      return new Scan(events, lineStart, Optional.of(new Torn(lineNumber, filled, "no final newline")));
    }
    if (pending != null) {
      return new Scan(events, pending.start(), Optional.of(new Torn(pending.line(), pending.bytes(), pending.why())));
    }
    return new Scan(events, lineStart, Optional.empty());
  }

  private static int indexOfNewline(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static CommitLogCorruptException corrupt(Path file, Pending bad) {
    return new CommitLogCorruptException(file, bad.line(), bad.seq(), bad.why());
  }
}
