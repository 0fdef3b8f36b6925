package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.store.internal.SessionTables;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A persist's plan: segments of 32 from the sealed length on, ending before the log's last event;
 * stored rows sealed inside the database only where a segment starts before the stored length; every
 * new event written exactly once, as a row or inside a segment.
 */
@Timeout(30)
class SealingTest {

  private static final int K = SessionTables.SEGMENT_EVENTS;

  @Test
  void theLastEventAlwaysStaysARow() {
    // 32 events: the first segment would hold the last one
    assertThat(Sealing.plan(0, 0, 32)).isEqualTo(new Sealing(0, 32, 32, 0));
    assertThat(Sealing.plan(0, 0, 33)).isEqualTo(new Sealing(0, 0, 32, 32));
    assertThat(Sealing.plan(0, 0, 1)).isEqualTo(new Sealing(0, 1, 1, 0));
  }

  @Test
  void storedRowsOfASegmentAreSealedInsideTheDatabase() {
    // 32 stored rows and one new event: rows 0..31 become a segment, event 32 a row
    assertThat(Sealing.plan(32, 0, 33)).isEqualTo(new Sealing(32, 33, 33, 32));
    // 40 stored, sealed to 32, 60 new: rows 32..63 (8 stored, 24 new) are sealed, 64..95 written
    // as a segment, 96..99 rows
    assertThat(Sealing.plan(40, 32, 100)).isEqualTo(new Sealing(64, 64, 96, 96));
    // a log stored before segments (sealed at its length) seals only what follows it
    assertThat(Sealing.plan(100, 100, 200)).isEqualTo(new Sealing(100, 100, 196, 196));
    assertThat(Sealing.plan(100, 100, 101)).isEqualTo(new Sealing(100, 101, 101, 100));
  }

  @Test
  void aPlanIsOnlyForALogThatGrowsFromItsSealedLength() {
    assertThatThrownBy(() -> Sealing.plan(5, 6, 7)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sealed 6, stored 5, new length 7");
    assertThatThrownBy(() -> Sealing.plan(5, 0, 5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Sealing.plan(5, -1, 9)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyNewEventIsWrittenOnceAndTheSegmentsAreWhole() {
    Random random = new Random(19);
    for (int run = 0; run < 100_000; run++) {
      long sealedFrom = random.nextInt(4) == 0 ? random.nextInt(1_000) : random.nextInt(40) * (long) K;
      // what the store keeps: at most a segment's worth of rows past the sealed length, or a log
      // stored before segments (sealed at its length)
      long stored = sealedFrom + random.nextInt(K + 1);
      long length = stored + 1 + random.nextInt(random.nextBoolean() ? 3 : 300);
      Sealing p = Sealing.plan(stored, sealedFrom, length);
      String at = "stored " + stored + ", sealed " + sealedFrom + ", length " + length + ": " + p;
      // the new sealed length: whole segments from the old one, as far as the last event allows
      assertThat((p.sealed() - sealedFrom) % K).as(at).isZero();
      assertThat(p.sealed()).as(at).isLessThanOrEqualTo(length - 1).isGreaterThan(length - 1 - K);
      // rows sealed inside the database: whole segments from the sealed length, each holding a stored row
      assertThat(p.rowsTo()).as(at).isBetween(sealedFrom, p.sealed());
      assertThat((p.rowsTo() - sealedFrom) % K).as(at).isZero();
      if (p.rowsTo() > sealedFrom) {
        assertThat(p.rowsTo() - K).as(at).isLessThan(stored);
      }
      // segments written directly hold only new events, and follow the sealed rows
      if (p.directFrom() < p.directTo()) {
        assertThat(p.directFrom()).as(at).isEqualTo(p.rowsTo()).isGreaterThanOrEqualTo(stored);
        assertThat(p.directTo()).as(at).isEqualTo(p.sealed());
      } else {
        assertThat(p.directFrom()).as(at).isEqualTo(length);
        assertThat(p.directTo()).as(at).isEqualTo(length);
        assertThat(p.rowsTo()).as(at).isEqualTo(p.sealed());
      }
      // new events as rows: [stored, directFrom) and [directTo, length); none twice, none missed
      long rows = Math.max(0, p.directFrom() - stored) + (length - p.directTo());
      long direct = p.directTo() - p.directFrom();
      assertThat(rows + direct).as(at).isEqualTo(length - stored);
    }
  }
}
