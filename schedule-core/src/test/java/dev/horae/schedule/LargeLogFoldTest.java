package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The incremental fold at the scale of a long session: absorbing a 1,000,000-event log one event
 * at a time ends in the state of the full fold. {@code FoldPropertiesTest} checks the same property
 * on short random logs; this one reaches the sizes where the fold's index grows and rehashes many
 * times. How fast either fold runs is measured by {@code FoldBenchmark} in {@code benchmarks}
 * (docs/performance.md), not here. Tagged {@code slow}; run with {@code -Pslow}.
 */
@Tag("slow")
// longer than the build's 60 s default: it builds and folds a million events, about 15 s under a
// load of 15-18 on the 2-core CI machine and several times that under heavier load
@Timeout(180)
class LargeLogFoldTest {

  @Test
  void absorbingAMillionEventsOneAtATimeEndsInTheFullFoldsState() {
    List<SessionEvent> events = FoldPropertiesTest.randomValidLog(new Random(6), 1_000_000);
    List<SessionEvent> growing = new ArrayList<>(events.size());
    ScheduleFold fold = ScheduleFold.start(0);
    for (SessionEvent e : events) {
      growing.add(e);
      fold.absorbLog(growing);
    }
    assertThat(fold.state()).isEqualTo(ScheduleFold.fold(events, 0));
  }
}
