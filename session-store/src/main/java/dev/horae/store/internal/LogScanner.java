package dev.horae.store.internal;

import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.EventCodec.Texts;
import dev.horae.spi.session.PayloadBlocks;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.internal.frame.LineFrame;
import dev.horae.store.internal.frame.LineResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 *
 * <p>A file of {@link #SPLIT_AT} bytes or more is read in two halves at once, the second on a
 * thread of its own, when the machine has a second core: reading, checking and decoding the lines
 * were most of a million-event open (docs/performance.md, "Two readers", issue 19). The answer is
 * the one a single reader gives, to the line and seq of a corruption's error.
 */
final class LogScanner {

  private static final int CHUNK = 1 << 20;

  /** The length from which a file is read in two halves at once (about 80,000 events). */
  static final long SPLIT_AT = 16L << 20;

  /** Where the second half begins is searched for in reads of this many bytes. */
  private static final int PROBE = 1 << 16;

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
   * @param readers how many readers read the file at once (1 or 2)
   */
  record Scan(List<SessionEvent> events, long goodBytes, Optional<Torn> torn, int readers) {}

  /**
   * A bad line of a part, counted from the part's start.
   *
   * @param line its 1-based number in the part
   * @param start its first byte's offset in the part
   * @param bytes its length, newline included
   * @param seq the number of the part's events before it
   * @param why what is wrong with it
   */
  private record Bad(long line, long start, long bytes, long seq, String why) {}

  /**
   * Replays a file, in two halves at once when it is long and a second core can read the other.
   *
   * @param file the event file
   * @return the good events and the torn tail
   * @throws CommitLogCorruptException when a line other than the last is bad, or any line breaks
   *     the seqs
   * @throws IOException when the file cannot be read
   */
  static Scan scan(Path file) throws IOException {
    return scan(file, SPLIT_AT);
  }

  /** {@link #scan(Path)} with the length from which two readers share the file. */
  static Scan scan(Path file, long splitAt) throws IOException {
    if (Runtime.getRuntime().availableProcessors() > 1 && Files.size(file) >= splitAt) {
      long second = lineAfterMiddle(file);
      if (second > 0) {
        return scanSplit(file, second);
      }
    }
    return scan(file, true);
  }

  /**
   * {@link #scan(Path)} by one reader, with the good lines read by one parser per buffer ({@code
   * oneParser}, what a load does) or each by its own (the reference the tests compare it with).
   */
  static Scan scan(Path file, boolean oneParser) throws IOException {
    return Part.read(file, 0, Long.MAX_VALUE, true, oneParser).alone(file);
  }

  /**
   * {@link #scan(Path)} by two readers: the lines before {@code second} on the calling thread, the
   * rest on a thread of its own.
   *
   * @param file the event file
   * @param second where a line begins (just after a newline), inside the file
   */
  static Scan scanSplit(Path file, long second) throws IOException {
    SideTask<Part> later = SideTask.start("horae-log-scan", () -> Part.read(file, second, Long.MAX_VALUE, false, true));
    Part first;
    try {
      first = Part.read(file, 0, second, true, true);
    } catch (IOException | RuntimeException | Error e) {
      // the other reader is not left reading a file whose open has failed
      later.awaitQuietly();
      throw e;
    }
    Part rest = later.await();
    if (first.incident != null) {
      throw corrupt(file, first.incident, 0, 0);
    }
    if (first.pending != null) {
      // the second half holds at least one more byte: the bad line is not the last
      throw corrupt(file, first.pending, 0, 0);
    }
    if (!rest.baseKnown) {
      // the second half's first line is bad, so its seq is unknown and its error text depends on
      // it; a file in this state is corrupt or torn, and one reader gives the exact answer
      return scan(file, true);
    }
    long seqBefore = first.events.size();
    if (rest.base != seqBefore) {
      throw new CommitLogCorruptException(file, first.lines + 1, seqBefore, seqGap(seqBefore, rest.base));
    }
    Scan tail = rest.after(file, first.lines, second, seqBefore);
    List<SessionEvent> events = first.events;
    events.addAll(tail.events());
    return new Scan(events, tail.goodBytes(), tail.torn(), 2);
  }

  /**
   * Where the first line after the file's middle begins, or 0 when no newline follows the middle
   * but the last.
   */
  private static long lineAfterMiddle(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      ByteBuffer probe = ByteBuffer.allocate(PROBE);
      long at = size / 2;
      while (at < size) {
        probe.clear();
        int n = channel.read(probe, at);
        if (n <= 0) {
          break;
        }
        for (int i = 0; i < n; i++) {
          if (probe.get(i) == '\n') {
            long second = at + i + 1;
            return second < size ? second : 0;
          }
        }
        at += n;
      }
      return 0;
    }
  }

  /**
   * The lines from one offset of the file to another. A part that does not start the file does
   * not know the seq of its first event: its first line tells it, and the caller checks it against
   * the events before.
   */
  private static final class Part {
    final List<SessionEvent> events = new ArrayList<>();
    /** The seq of the part's first event. */
    long base;
    /**
     * Whether {@link #base} is known: always for the part that starts the file, otherwise when its
     * first line's frame is good and it names an event's seq.
     */
    boolean baseKnown;
    /** Whole lines read. */
    long lines;
    /** Where the next line starts, from the part's start. */
    long lineStart;
    /** A bad line not yet known to be last. */
    @Nullable Bad pending;
    /** The corruption that ended the read. */
    @Nullable Bad incident;
    /** Bytes after the last newline: a last line without one. */
    long unfinished;

    /**
     * Reads the lines that start in {@code [from, to)}; {@code to} is a line's start or past the
     * end.
     */
    static Part read(Path file, long from, long to, boolean startsFile, boolean oneParser) throws IOException {
      Part part = new Part();
      part.baseKnown = startsFile;
      part.scan(file, from, to, oneParser);
      return part;
    }

    private void scan(Path file, long from, long to, boolean oneParser) throws IOException {
      // lines are decoded where they were read: no byte is copied into a line buffer first
      byte[] buffer = new byte[CHUNK];
      int start = 0;
      int filled = 0;
      int searched = 0;
      long left = to - from;
      OneParser parser = new OneParser();
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ); parser) {
        in.position(from);
        while (true) {
          int newline;
          parser.reset(lastNewline(buffer, start + searched, filled) + 1);
          while ((newline = indexOfNewline(buffer, start + searched, filled)) >= 0) {
            int length = newline - start;
            lines++;
            if (pending != null) {
              incident = pending;
              return;
            }
            if (lines == 1 && !baseKnown) {
              // the first line of a later part: its first event's seq is the part's base (read
              // without the one parser, which overwrites the checksum it has checked)
              LineResult peek = LineFrame.decode(buffer, start, length, 0);
              baseKnown = !(peek instanceof LineResult.BadFrame);
              if (peek instanceof LineResult.SeqGap gap && gap.expected() == 0) {
                base = gap.found();
              }
            }
            long seq = base + events.size();
            LineResult result = oneParser
                ? LineFrame.decode(buffer, start, length, seq, parser)
                : LineFrame.decode(buffer, start, length, seq);
            if (result instanceof LineResult.Good good) {
              events.addAll(good.events());
            } else if (result instanceof LineResult.SeqGap gap) {
              incident = new Bad(lines, lineStart, length + 1L, events.size(), seqGap(gap.expected(), gap.found()));
              return;
            } else {
              pending = new Bad(lines, lineStart, length + 1L, events.size(), ((LineResult.BadFrame) result).why());
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
          int want = (int) Math.min(buffer.length - filled, left);
          int n = want == 0 ? -1 : in.read(ByteBuffer.wrap(buffer, filled, want));
          if (n < 0) {
            break;
          }
          filled += n;
          left -= n;
        }
      }
      unfinished = filled;
    }

    /** The answer when this part is the whole file. */
    Scan alone(Path file) {
      return after(file, 0, 0, 0);
    }

    /**
     * The answer for this part as the file's last, after {@code lines} good lines of {@code bytes}
     * holding {@code seqs} events.
     */
    Scan after(Path file, long lines, long bytes, long seqs) {
      if (incident != null) {
        throw corrupt(file, incident, lines, seqs);
      }
      if (unfinished > 0) {
        if (pending != null) {
          throw corrupt(file, pending, lines, seqs);
        }
        return new Scan(events, bytes + lineStart,
            Optional.of(new Torn(lines + this.lines + 1, unfinished, "no final newline")), 1);
      }
      if (pending != null) {
        return new Scan(events, bytes + pending.start(),
            Optional.of(new Torn(lines + pending.line(), pending.bytes(), pending.why())), 1);
      }
      return new Scan(events, bytes + lineStart, Optional.empty(), 1);
    }
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
   * it by a new parser. The payloads of all the part's events share the blocks of one {@link
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

  private static String seqGap(long expected, long found) {
    return "seq gap: expected seq " + expected + ", found " + found;
  }

  private static CommitLogCorruptException corrupt(Path file, Bad bad, long linesBefore, long seqsBefore) {
    return new CommitLogCorruptException(file, linesBefore + bad.line(), seqsBefore + bad.seq(), bad.why());
  }
}
