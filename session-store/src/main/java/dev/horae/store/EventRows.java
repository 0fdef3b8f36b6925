package dev.horae.store;

import dev.horae.spi.session.SessionEvent;
import dev.horae.store.internal.SideTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * The rows of one JDBC load — event rows and segments of events — checked to be contiguous and
 * decoded in seq order: on the caller's thread, or — for a long log — on a second thread while the
 * caller reads the next rows.
 *
 * <p>Why a second thread: in a million-row load the database's backend produced rows for about as
 * long as the decoding took, and the two alternated, so one core stood idle; the caller keeps the
 * connection and its transaction and only reads rows, the decoder only decodes (docs/performance.md,
 * "The JDBC store's load", issue 19). The answer and the first error are those of decoding on the
 * caller's thread: rows are decoded in the order they arrive, and the first failure is the one
 * reported.
 */
final class EventRows implements AutoCloseable {

  /** Decodes one row. */
  @FunctionalInterface
  interface Decoder {
    /**
     * The row's event.
     *
     * @param seq the row's seq
     * @param bytes holds the row's event text, UTF-8
     * @param offset where the text starts
     * @param length its length in bytes
     * @return the event
     * @throws SessionStoreException when the row is corrupt
     */
    SessionEvent decode(long seq, byte[] bytes, int offset, int length);
  }

  /** Decodes one segment. */
  @FunctionalInterface
  interface Segments {
    /**
     * The segment's events, each checked to carry its seq.
     *
     * @param first the segment's first seq
     * @param bytes holds the segment's text (a JSON array of events), UTF-8
     * @param offset where the text starts
     * @param length its length in bytes
     * @return the events, in seq order from {@code first}
     * @throws SessionStoreException when the segment is corrupt
     */
    List<SessionEvent> decode(long first, byte[] bytes, int offset, int length);
  }

  /** The error for a row whose seq does not continue the log. */
  @FunctionalInterface
  interface Gap {
    /**
     * The error.
     *
     * @param expected the seq the row had to carry
     * @param found the seq it carries
     * @return the error to throw
     */
    SessionStoreException at(long expected, long found);
  }

  /** Rows handed to the decoder at a time, at most. */
  private static final int BATCH = 1_000;

  /** Bytes of rows handed to the decoder at a time, at most (a segment holds many events). */
  private static final int BATCH_BYTES = 256 * 1024;

  /** Batches the decoder may be behind before the caller waits. */
  private static final int AHEAD = 8;

  private static final Batch END = new Batch(0);

  private final Decoder decoder;
  private final Segments segments;
  private final Gap gap;
  private final List<SessionEvent> events = new ArrayList<>();
  private final @Nullable BlockingQueue<Batch> queue;
  private final @Nullable SideTask<Void> decoding;
  private Batch filling = new Batch(BATCH);
  private volatile @Nullable Throwable failure;
  private boolean ended;

  private EventRows(Decoder decoder, Segments segments, Gap gap, boolean pipelined) {
    this.decoder = decoder;
    this.segments = segments;
    this.gap = gap;
    if (pipelined) {
      queue = new ArrayBlockingQueue<>(AHEAD);
      decoding = SideTask.start("horae-jdbc-decode", this::decodeBatches);
    } else {
      queue = null;
      decoding = null;
    }
  }

  /**
   * Rows for a log of {@code length} events: decoded on a second thread from {@code pipelineAt}
   * events on when the machine has a second core, else on the caller's thread.
   *
   * @param length the log's length
   * @param pipelineAt the length from which a second thread decodes
   * @param decoder decodes a row
   * @param segments decodes a segment
   * @param gap the error of a seq that does not continue the log
   * @return the rows
   */
  static EventRows forLength(long length, long pipelineAt, Decoder decoder, Segments segments, Gap gap) {
    return length >= pipelineAt && Runtime.getRuntime().availableProcessors() > 1
        ? pipelined(decoder, segments, gap)
        : direct(decoder, segments, gap);
  }

  /**
   * Whether a second thread decodes the rows.
   *
   * @return true when it does
   */
  boolean pipelined() {
    return queue != null;
  }

  /**
   * Rows decoded on the caller's thread as they are added.
   *
   * @param decoder decodes a row
   * @param segments decodes a segment
   * @param gap the error of a seq that does not continue the log
   * @return the rows
   */
  static EventRows direct(Decoder decoder, Segments segments, Gap gap) {
    return new EventRows(decoder, segments, gap, false);
  }

  /**
   * Rows decoded on a second thread while the caller adds the next ones.
   *
   * @param decoder decodes a row; called on the second thread only
   * @param segments decodes a segment; called on the second thread only
   * @param gap the error of a seq that does not continue the log
   * @return the rows
   */
  static EventRows pipelined(Decoder decoder, Segments segments, Gap gap) {
    return new EventRows(decoder, segments, gap, true);
  }

  /**
   * Adds the next row. The bytes are the caller's no more: a second thread may read them later.
   *
   * @param seq its seq
   * @param bytes holds its event text, UTF-8
   * @param offset where the text starts
   * @param length its length in bytes
   * @throws SessionStoreException when this or an earlier row is corrupt (an earlier one's error
   *     may come only from {@link #finish})
   */
  void add(long seq, byte[] bytes, int offset, int length) {
    add(seq, bytes, offset, length, false);
  }

  /**
   * Adds the next segment, as {@link #add} adds a row.
   *
   * @param first its first seq
   * @param bytes holds its text (a JSON array of events), UTF-8
   * @param offset where the text starts
   * @param length its length in bytes
   * @throws SessionStoreException when this or an earlier row or segment is corrupt (an earlier
   *     one's error may come only from {@link #finish})
   */
  void addSegment(long first, byte[] bytes, int offset, int length) {
    add(first, bytes, offset, length, true);
  }

  private void add(long seq, byte[] bytes, int offset, int length, boolean segment) {
    if (queue == null) {
      append(seq, bytes, offset, length, segment);
      return;
    }
    rethrowFailure();
    filling.add(seq, bytes, offset, length, segment);
    if (filling.size == BATCH || filling.bytes >= BATCH_BYTES) {
      putUninterruptibly(filling);
      filling = new Batch(BATCH);
    }
  }

  /**
   * The decoded events, once every added row is decoded.
   *
   * @return the events, in seq order
   * @throws SessionStoreException when a row is corrupt
   */
  List<SessionEvent> finish() {
    if (queue != null) {
      if (filling.size > 0) {
        putUninterruptibly(filling);
      }
      end();
      rethrowFailure();
    }
    return events;
  }

  /** Stops the decoder, after a failure of the caller or after {@link #finish}. */
  @Override
  public void close() {
    if (queue != null && !ended) {
      // a failure the decoder sees makes it skip the batches still queued
      failure = failure == null ? new IllegalStateException("load abandoned") : failure;
      end();
    }
  }

  private void append(long seq, byte[] bytes, int offset, int length, boolean segment) {
    if (seq != events.size()) {
      throw gap.at(events.size(), seq);
    }
    if (segment) {
      events.addAll(segments.decode(seq, bytes, offset, length));
    } else {
      events.add(decoder.decode(seq, bytes, offset, length));
    }
  }

  private @Nullable Void decodeBatches() {
    BlockingQueue<Batch> q = Objects.requireNonNull(queue);
    while (true) {
      Batch batch;
      try {
        batch = q.take();
      } catch (InterruptedException e) {
        // nothing interrupts this thread but its own end; keep draining until END
        continue;
      }
      if (batch == END) {
        return null;
      }
      if (failure != null) {
        continue;
      }
      try {
        for (int i = 0; i < batch.size; i++) {
          append(batch.seqs[i], batch.rows[i], batch.offsets[i], batch.lengths[i], batch.segments[i]);
        }
      } catch (RuntimeException | Error e) {
        failure = e;
      }
    }
  }

  /** Ends the decoder and waits for it: the events list is the caller's from here on. */
  private void end() {
    ended = true;
    putUninterruptibly(END);
    // the decoder keeps its failures in the field, so its task ends normally
    Objects.requireNonNull(decoding).awaitQuietly();
  }

  private void putUninterruptibly(Batch batch) {
    boolean interrupted = false;
    while (true) {
      try {
        Objects.requireNonNull(queue).put(batch);
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void rethrowFailure() {
    Throwable f = failure;
    if (f instanceof RuntimeException r) {
      throw r;
    }
    if (f instanceof Error e) {
      throw e;
    }
  }

  /** Rows and segments on their way to the decoder: each one's bytes as the caller gave them. */
  private static final class Batch {
    final long[] seqs;
    final byte[][] rows;
    final int[] offsets;
    final int[] lengths;
    final boolean[] segments;
    int size;
    long bytes;

    Batch(int capacity) {
      seqs = new long[capacity];
      rows = new byte[capacity][];
      offsets = new int[capacity];
      lengths = new int[capacity];
      segments = new boolean[capacity];
    }

    void add(long seq, byte[] row, int offset, int length, boolean segment) {
      seqs[size] = seq;
      rows[size] = row;
      offsets[size] = offset;
      lengths[size] = length;
      segments[size] = segment;
      size++;
      bytes += length;
    }
  }
}
