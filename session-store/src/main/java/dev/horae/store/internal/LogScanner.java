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

  private static final int CHUNK = 1 << 16;

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
    byte[] line = new byte[CHUNK];
    int lineLength = 0;
    long lineNumber = 0;
    long lineStart = 0;
    Pending pending = null;
    byte[] chunk = new byte[CHUNK];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(chunk)) > 0) {
        for (int i = 0; i < n; i++) {
          byte b = chunk[i];
          if (b != '\n') {
            if (lineLength == line.length) {
              line = Arrays.copyOf(line, line.length * 2);
            }
            line[lineLength++] = b;
            continue;
          }
          lineNumber++;
          if (pending != null) {
            throw corrupt(file, pending);
          }
          long seq = events.size();
          LineResult result = LineFrame.decode(line, lineLength, seq);
          if (result instanceof LineResult.Good good) {
            events.addAll(good.events());
          } else if (result instanceof LineResult.SeqGap gap) {
            throw new CommitLogCorruptException(
                file, lineNumber, seq, "seq gap: expected seq " + gap.expected() + ", found " + gap.found());
          } else {
            pending = new Pending(lineNumber, lineStart, lineLength + 1L, seq, ((LineResult.BadFrame) result).why());
          }
          lineStart += lineLength + 1L;
          lineLength = 0;
        }
      }
    }
    if (lineLength > 0) {
      lineNumber++;
      if (pending != null) {
        throw corrupt(file, pending);
      }
      return new Scan(events, lineStart, Optional.of(new Torn(lineNumber, lineLength, "no final newline")));
    }
    if (pending != null) {
      return new Scan(events, pending.start(), Optional.of(new Torn(pending.line(), pending.bytes(), pending.why())));
    }
    return new Scan(events, lineStart, Optional.empty());
  }

  private static CommitLogCorruptException corrupt(Path file, Pending bad) {
    return new CommitLogCorruptException(file, bad.line(), bad.seq(), bad.why());
  }
}
