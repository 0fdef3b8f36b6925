package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Failure-matrix rows that need faults the testkit does not inject by itself (spec §12.2, §12.7). */
class FaultTest {

  private WrappedHost w;
  private Fixture f;
  private TestAgent a;

  @BeforeEach
  void setUp() {
    w = new WrappedHost(TestHost.builder().start(Fixture.START).build());
    f = new Fixture(w);
    a = f.agent();
  }

  @Test
  void framingOrFollowupFailureWritesNoDispatchAndKeepsTheOwner() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":10}");
    w.failIds.set(1);
    f.host.advance(Duration.ofSeconds(10));
    assertThat(a.followups()).isEmpty();
    assertThat(f.changes(a)).hasSize(1);
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.time().pendingTimers()).isZero();
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("could not be queued"));
    f.list(a); // the next trigger retries
    assertThat(a.followups()).hasSize(1);
    assertThat(f.changeTexts(a)).last().asString().contains("\"dispatch\"");
  }

  @Test
  void aThrowingRunWithoutInitiatorIsLoggedAndDoesNotFaultTheOwner() {
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":600}");
    w.failRunWithoutInitiator.set(1);
    assertThat(f.list(a)).contains("schedule-1");
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.warnings().messages()).anyMatch(m -> m.contains("could not start"));
    f.list(a);
    assertThat(f.owner(a).timerArmed()).isTrue();
    f.host.advance(Duration.ofMinutes(10));
    assertThat(a.followups()).hasSize(1);
  }

  @Test
  void listCostsOneFlushAndOneOwnerRequest() {
    long flushes = f.toolFlushes(a);
    long requests = f.owner(a).requests();
    assertThat(f.list(a)).isEqualTo("[]");
    assertThat(f.toolFlushes(a) - flushes).isEqualTo(1);
    assertThat(f.owner(a).requests() - requests).isEqualTo(1);
  }
}
