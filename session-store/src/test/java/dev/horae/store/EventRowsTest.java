package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rows of a JDBC load decoded on a second thread answer as rows decoded on the caller's
 * thread: the same events in seq order, the same first error (a corrupt row or segment, a seq gap,
 * an {@link Error}), wherever in the batches it stands; and a load its caller abandons ends the
 * second thread. A segment's events continue the log like rows: the next row or segment carries
 * the seq after its last event.
 */
@Timeout(30)
class EventRowsTest {

  private static final EventRows.Gap GAP =
      (expected, found) -> new SessionStoreException("gap: expected " + expected + ", found " + found);

  private final Set<String> decodingThreads = ConcurrentHashMap.newKeySet();

  private SessionEvent decode(long seq, byte[] bytes, int offset, int length) {
    decodingThreads.add(Thread.currentThread().getName());
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (text.equals("bad")) {
      throw new SessionStoreException("corrupt row " + seq);
    }
    if (text.equals("error")) {
      throw new AssertionError("error at " + seq);
    }
    return SessionEvent.of(seq, "t", seq, Json.parse(text));
  }

  // a segment's text here: "seg:<count>", or "seg:bad"
  private List<SessionEvent> segment(long first, byte[] bytes, int offset, int length) {
    decodingThreads.add(Thread.currentThread().getName());
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (text.equals("seg:bad")) {
      throw new SessionStoreException("corrupt segment " + first);
    }
    int count = Integer.parseInt(text.substring(4).trim());
    List<SessionEvent> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(SessionEvent.of(first + i, "t", first + i, Json.parse("{}")));
    }
    return events;
  }

  private EventRows rows(boolean pipelined) {
    return pipelined ? EventRows.pipelined(this::decode, this::segment, GAP) : EventRows.direct(this::decode, this::segment, GAP);
  }

  /** Adds rows 0..n-1 (row texts from {@code text}, seqs from {@code seq}) and finishes. */
  private String outcome(boolean pipelined, int n, java.util.function.IntFunction<String> text,
      java.util.function.IntToLongFunction seq) {
    try (EventRows rows = rows(pipelined)) {
      for (int i = 0; i < n; i++) {
        // a row's text stands inside a larger array, as in its COPY message
        String t = text.apply(i);
        byte[] message = ("<" + t + ">").getBytes(StandardCharsets.UTF_8);
        if (t.startsWith("seg:")) {
          rows.addSegment(seq.applyAsLong(i), message, 1, message.length - 2);
        } else {
          rows.add(seq.applyAsLong(i), message, 1, message.length - 2);
        }
      }
      List<SessionEvent> events = rows.finish();
      List<String> seqs = new ArrayList<>();
      for (SessionEvent e : events) {
        seqs.add(e.seq() + ":" + e.time());
      }
      return events.size() + " " + seqs.hashCode() + " " + events.get(events.size() - 1).seq();
    } catch (RuntimeException | AssertionError e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private void assertSame(int n, java.util.function.IntFunction<String> text, java.util.function.IntToLongFunction seq,
      String expectedStart) {
    String direct = outcome(false, n, text, seq);
    assertThat(direct).startsWith(expectedStart);
    assertThat(decodingThreads).containsExactly(Thread.currentThread().getName());
    decodingThreads.clear();
    assertThat(outcome(true, n, text, seq)).isEqualTo(direct);
    assertThat(decodingThreads).containsExactly("horae-jdbc-decode");
    decodingThreads.clear();
  }

  @Test
  void manyBatchesDecodeToTheSameEventsInSeqOrder() {
    assertSame(3_500, i -> "{}", i -> i, "3500 ");
    // fewer rows than one batch
    assertSame(7, i -> "{}", i -> i, "7 ");
  }

  @Test
  void theFirstCorruptRowIsTheErrorWhereverItStands() {
    for (int bad : new int[] {0, 999, 1000, 1001, 2_345, 3_999}) {
      assertSame(4_000, i -> i == bad || i == bad + 3 ? "bad" : "{}", i -> i,
          "SessionStoreException: corrupt row " + bad);
    }
  }

  @Test
  void segmentsAndRowsDecodeToTheSameEventsInSeqOrder() {
    // rows 0..99, then 2,000 segments of 32 (a batch ends at its row count or at its bytes), then rows
    java.util.function.IntFunction<String> text = i -> i < 100 || i >= 2_100 ? "{}" : "seg:32";
    java.util.function.IntToLongFunction seq = i -> i < 100 ? i : i < 2_100 ? 100 + (i - 100) * 32L : 64_100 + i - 2_100;
    assertSame(2_200, text, seq, "64200 ");
    // segments long enough that a batch ends at its bytes, not at its rows
    String padded = "seg:1" + " ".repeat(300_000);
    assertSame(20, i -> padded, i -> i, "20 ");
  }

  @Test
  void aBatchEndsAtItsBytesSoLargeSegmentsWaitForTheDecoder() throws Exception {
    // the decoder stops at the first segment: the caller may run only a few batches ahead of it
    java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
    EventRows.Segments held = (first, bytes, offset, length) -> {
      try {
        go.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return segment(first, bytes, offset, length);
    };
    java.util.concurrent.atomic.AtomicInteger added = new java.util.concurrent.atomic.AtomicInteger();
    byte[] large = ("seg:1" + " ".repeat(300_000)).getBytes(StandardCharsets.UTF_8);
    try (EventRows rows = EventRows.pipelined(this::decode, held, GAP)) {
      Thread caller = new Thread(() -> {
        for (int i = 0; i < 100; i++) {
          rows.addSegment(i, large, 0, large.length);
          added.incrementAndGet();
        }
      }, "caller");
      caller.start();
      // 100 rows are a tenth of a batch's rows, but 30 MB: the caller waits after a few batches of bytes
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
          .until(() -> caller.getState() == Thread.State.WAITING);
      assertThat(added.get()).isLessThan(20);
      go.countDown();
      caller.join(20_000);
      assertThat(added.get()).isEqualTo(100);
      assertThat(rows.finish()).hasSize(100);
    }
  }

  @Test
  void aSegmentIsContinuedByTheSeqAfterItsLastEvent() {
    // a segment of 32 from seq 0 is followed by a row claiming seq 31
    assertSame(3, i -> i == 0 ? "seg:32" : "{}", i -> i == 0 ? 0 : 30 + i,
        "SessionStoreException: gap: expected 32, found 31");
    // and a segment must start where the log stands
    assertSame(3, i -> i == 1 ? "seg:32" : "{}", i -> i == 1 ? 2 : i,
        "SessionStoreException: gap: expected 1, found 2");
  }

  @Test
  void theFirstCorruptSegmentIsTheErrorWhereverItStands() {
    for (int bad : new int[] {0, 999, 1000, 1_500}) {
      assertSame(2_000, i -> i == bad || i == bad + 3 ? "seg:bad" : "seg:32", i -> i * 32L,
          "SessionStoreException: corrupt segment " + bad * 32L);
    }
  }

  @Test
  void aSeqGapIsTheErrorEitherWay() {
    assertSame(4_000, i -> "{}", i -> i < 2_500 ? i : i + 1, "SessionStoreException: gap: expected 2500, found 2501");
  }

  @Test
  void anErrorOfTheDecoderIsRethrownAsItIs() {
    assertSame(3_000, i -> i == 2_222 ? "error" : "{}", i -> i, "AssertionError: error at 2222");
  }

  @Test
  void anAbandonedLoadEndsTheDecoder() throws InterruptedException {
    EventRows rows = rows(true);
    for (int i = 0; i < 5_000; i++) {
      rows.add(i, new byte[] {'{', '}'}, 0, 2);
    }
    // the caller fails (say, its connection breaks) and closes without finishing
    rows.close();
    assertThat(decoderAlive()).isFalse();
    // closing again is harmless
    rows.close();
  }

  private static boolean decoderAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("horae-jdbc-decode") && t.isAlive());
  }

  @Test
  void aSecondThreadDecodesFromTheStoresThresholdOnWhenASecondCoreIsThere() {
    boolean twoCores = Runtime.getRuntime().availableProcessors() > 1;
    long at = JdbcSessionStore.PIPELINE_AT;
    try (EventRows below = EventRows.forLength(at - 1, at, this::decode, this::segment, GAP);
        EventRows from = EventRows.forLength(at, at, this::decode, this::segment, GAP)) {
      assertThat(below.pipelined()).isFalse();
      assertThat(from.pipelined()).isEqualTo(twoCores);
    }
  }
}
