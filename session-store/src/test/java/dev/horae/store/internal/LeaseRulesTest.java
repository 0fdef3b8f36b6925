package dev.horae.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.store.internal.LeaseRules.Holder;
import dev.horae.store.internal.LeaseRules.LeaseRecord;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The lease rules at their edges (docs/persistence.md, "Session leases"): the shortest duration a lease
 * may have, an expiry that saturates instead of wrapping when a clock stands near the end of the
 * long range, and the checked ids that lease operations go on with.
 */
class LeaseRulesTest {

  @Test
  void aLeaseLastsAtLeastOneMillisecond() {
    assertThat(LeaseRules.durationMillis(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(LeaseRules.durationMillis(Duration.ofSeconds(30))).isEqualTo(30_000);
    for (Duration tooShort : new Duration[] {Duration.ofNanos(999_999), Duration.ZERO, Duration.ofMillis(-5)}) {
      assertThatThrownBy(() -> LeaseRules.durationMillis(tooShort))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a lease duration must be positive (at least 1 ms), got " + tooShort);
    }
  }

  @Test
  void anExpiryIsTheTimePlusTheDurationAndSaturatesAtTheEndOfTheRange() {
    assertThat(expiryOf(100, 10)).isEqualTo(110);
    assertThat(expiryOf(0, 10)).as("a clock at the epoch").isEqualTo(10);
    assertThat(expiryOf(-100, 10)).as("a clock before the epoch").isEqualTo(-90);
    assertThat(expiryOf(Long.MAX_VALUE - 10, 10)).as("just fits").isEqualTo(Long.MAX_VALUE);
    assertThat(expiryOf(Long.MAX_VALUE - 5, 10)).as("would wrap into the past").isEqualTo(Long.MAX_VALUE);
    assertThat(expiryOf(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    // a renewal computes its expiry the same way and keeps the epoch, the owner and the acquisition time
    LeaseRecord held = LeaseRules.acquire(LeaseRecord.NEVER_LEASED, "node-a", 100, 10).orElseThrow();
    assertThat(LeaseRules.renewed(held, Long.MAX_VALUE - 5, 10))
        .isEqualTo(new LeaseRecord(1, new Holder("node-a", 100, Long.MAX_VALUE)));
    assertThat(LeaseRules.renewed(held, 200, 10)).isEqualTo(new LeaseRecord(1, new Holder("node-a", 100, 210)));
  }

  @Test
  void checkedIdsAreTheIdsGiven() {
    assertThat(LeaseRules.sessionId("s-1")).isEqualTo("s-1");
    assertThat(LeaseRules.owner("node-a")).isEqualTo("node-a");
    assertThatThrownBy(() -> LeaseRules.sessionId(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a leased session id must not be blank");
  }

  private static long expiryOf(long nowMs, long durationMs) {
    Holder h = Objects.requireNonNull(
        LeaseRules.acquire(LeaseRecord.NEVER_LEASED, "o", nowMs, durationMs).orElseThrow().holder());
    return h.expiresAtMs();
  }
}
