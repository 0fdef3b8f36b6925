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
 * thread: the same events in seq order, the same first error (a corrupt row, a seq gap, an
 * {@link Error}), wherever in the batches it stands; and a load its caller abandons ends the
 * second thread.
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

  /** Adds rows 0..n-1 (row texts from {@code text}, seqs from {@code seq}) and finishes. */
  private String outcome(boolean pipelined, int n, java.util.function.IntFunction<String> text,
      java.util.function.IntToLongFunction seq) {
    try (EventRows rows = pipelined ? EventRows.pipelined(this::decode, GAP) : EventRows.direct(this::decode, GAP)) {
      for (int i = 0; i < n; i++) {
        // a row's text stands inside a larger array, as in its COPY message
        byte[] message = ("<" + text.apply(i) + ">").getBytes(StandardCharsets.UTF_8);
        rows.add(seq.applyAsLong(i), message, 1, message.length - 2);
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
  void aSeqGapIsTheErrorEitherWay() {
    assertSame(4_000, i -> "{}", i -> i < 2_500 ? i : i + 1, "SessionStoreException: gap: expected 2500, found 2501");
  }

  @Test
  void anErrorOfTheDecoderIsRethrownAsItIs() {
    assertSame(3_000, i -> i == 2_222 ? "error" : "{}", i -> i, "AssertionError: error at 2222");
  }

  @Test
  void anAbandonedLoadEndsTheDecoder() throws InterruptedException {
    EventRows rows = EventRows.pipelined(this::decode, GAP);
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
    try (EventRows below = EventRows.forLength(at - 1, at, this::decode, GAP);
        EventRows from = EventRows.forLength(at, at, this::decode, GAP)) {
      assertThat(below.pipelined()).isFalse();
      assertThat(from.pipelined()).isEqualTo(twoCores);
    }
  }
}
