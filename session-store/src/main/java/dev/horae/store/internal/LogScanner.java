package dev.horae.store.internal;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.EventCodec.Texts;
import dev.horae.spi.session.PayloadBlocks;
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
import org.jspecify.annotations.Nullable;

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
    return scan(file, true);
  }

  /**
   * {@link #scan(Path)}, with the good lines read by one parser per buffer ({@code oneParser}, what
   * a load does) or each by its own (the reference the tests compare it with).
   */
  static Scan scan(Path file, boolean oneParser) throws IOException {
    List<SessionEvent> events = new ArrayList<>();
    // lines are decoded where they were read: no byte is copied into a line buffer first
    byte[] buffer = new byte[CHUNK];
    int start = 0;
    int filled = 0;
    int searched = 0;
    long lineNumber = 0;
    long lineStart = 0;
    Pending pending = null;
    OneParser parser = new OneParser();
    try (InputStream in = Files.newInputStream(file); parser) {
      while (true) {
        int newline;
        parser.reset(lastNewline(buffer, start + searched, filled) + 1);
        while ((newline = indexOfNewline(buffer, start + searched, filled)) >= 0) {
          int length = newline - start;
          lineNumber++;
          if (pending != null) {
            throw corrupt(file, pending);
          }
          long seq = events.size();
          LineResult result = oneParser
              ? LineFrame.decode(buffer, start, length, seq, parser)
              : LineFrame.decode(buffer, start, length, seq);
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
        parser.reset(0);
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

  /** The last newline in {@code [from, to)}, or {@code from - 1} when there is none. */
  private static int lastNewline(byte[] bytes, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return from - 1;
  }

  /**
   * Reads the JSON of the good lines of one buffer's whole lines with one parser ({@link
   * EventCodec.Texts}) instead of one per line. A good line's checksum and its space are
   * overwritten with spaces before its JSON is read (the checksum covers only the JSON and was
   * checked), so the parser steps over them as white space between one line's array and the next.
   * A line the parser cannot vouch for is read on its own by {@link LineFrame}, and the lines after
   * it by a new parser. The payloads of all the file's events share the blocks of one {@link
   * PayloadBlocks}: the log they make is retained whole.
   */
  private static final class OneParser implements LineFrame.FirstRead, AutoCloseable {
    private final PayloadBlocks blocks = new PayloadBlocks();
    private @Nullable Texts texts;
    /** The end of the buffer's last whole line: the parser reads no further. */
    private int end;

    /** Forgets the parser: the buffer's lines end at {@code end} now, or the buffer moves. */
    void reset(int end) {
      close();
      this.end = end;
    }

    @Override
    public Optional<List<SessionEvent>> read(byte[] buffer, int line, int json, int length) {
      if (json + length > end) {
        return Optional.empty();
      }
      Arrays.fill(buffer, line, json, (byte) ' ');
      Texts t = texts;
      if (t == null) {
        t = EventCodec.texts(buffer, line, end, blocks);
        texts = t;
      }
      Optional<List<SessionEvent>> events = t.read(json, length);
      if (events.isEmpty()) {
        // that reader is spent; the next line starts a new one
        close();
      }
      return events;
    }

    @Override
    public void close() {
      Texts t = texts;
      texts = null;
      if (t != null) {
        t.close();
      }
    }
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
