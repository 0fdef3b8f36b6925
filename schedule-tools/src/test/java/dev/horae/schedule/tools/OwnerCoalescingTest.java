package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.session.HeldFlush;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the owner's run clears {@code requested} (spec §12.2): as its drive starts inside the FIFO.
 * Requests made before the drive started are served by it; a request made once it has started
 * gets a drive of its own, so none is lost.
 */
class OwnerCoalescingTest {

  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    f = new Fixture();
    a = f.agent();
    f.create(a, "{\"prompt\":\"later\",\"after_seconds\":600}");
  }

  @Test
  void aCreateAsksTheOwnerTwiceAndCostsItOneDrive() {
    long requests = f.owner(a).requests();
    long ownerFlushes = f.owner(a).flushes();

    f.create(a, "{\"prompt\":\"sooner\",\"after_seconds\":60}");

    // the preflight's and the barrier's requests (spec §12.2) both come before the drive, which
    // waits in the FIFO behind the create, so one drive folds the log after both
    assertThat(f.owner(a).requests() - requests).isEqualTo(2);
    assertThat(f.owner(a).flushes() - ownerFlushes).isEqualTo(1);
    assertThat(f.host.time().nextTimerIn()).contains(Duration.ofSeconds(60));
  }

  @Test
  void aRequestMadeWhileTheDriveRunsGetsADriveOfItsOwn() {
    long ownerFlushes = f.owner(a).flushes();
    HeldFlush preflight = f.host.store().script().thenHold();
    // an idle status change asks the owner (spec §12.2); its drive starts and waits on the flush
    a.setBusy();
    a.setIdle();
    assertThat(preflight.reached()).isTrue();
    long requests = f.owner(a).requests();

    a.setBusy();
    a.setIdle();
    assertThat(f.owner(a).requests()).isGreaterThan(requests);
    preflight.release();
    f.host.settle();

    assertThat(f.owner(a).flushes() - ownerFlushes).isEqualTo(2);
    assertThat(f.host.time().nextTimerIn()).contains(Duration.ofMinutes(10));
    assertThat(f.owner(a).faulted()).isFalse();
  }
}
