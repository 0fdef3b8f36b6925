package dev.horae.testkit.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneId;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SequentialIdsTest {

  @Test
  void issuesPredictableVersion4ShapedIds() {
    SequentialIds ids = new SequentialIds();

    UUID first = ids.next();
    UUID second = ids.next();

    assertThat(first).hasToString("00000000-0000-4000-8000-000000000001");
    assertThat(second).hasToString("00000000-0000-4000-8000-000000000002");
    assertThat(first.version()).isEqualTo(4);
    assertThat(first.variant()).isEqualTo(2);
    assertThat(ids.issued()).isEqualTo(2);
    assertThat(SequentialIds.idNumber(2)).isEqualTo(second);
    assertThat(SequentialIds.idNumber(0x2A)).hasToString("00000000-0000-4000-8000-00000000002a");
  }

  @Test
  void idNumbersOutsideTheRangeAreRejected() {
    assertThatThrownBy(() -> SequentialIds.idNumber(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SequentialIds.idNumber(1L << 48)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void settableZoneSuppliesTheZoneItWasSetToAndCountsReads() {
    SettableZone zone = new SettableZone(ZoneId.of("Europe/Berlin"));
    assertThat(zone.reads()).isZero();

    assertThat(zone.get()).isEqualTo(ZoneId.of("Europe/Berlin"));
    zone.set(ZoneId.of("Asia/Tokyo"));
    assertThat(zone.get()).isEqualTo(ZoneId.of("Asia/Tokyo"));

    assertThat(zone.reads()).isEqualTo(2);
  }
}
