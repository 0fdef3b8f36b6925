package dev.horae.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AbortControllerTest {

  @Test
  void firesListenersOnceWithTheFirstCauseAndRunsLateListenersImmediately() {
    AbortController c = new AbortController();
    List<String> seen = new ArrayList<>();
    c.onAbort(() -> seen.add("early"));
    Registration removed = c.onAbort(() -> seen.add("removed"));
    removed.close();

    IllegalStateException first = new IllegalStateException("first");
    c.abort(first);
    c.abort(new IllegalStateException("second"));
    c.onAbort(() -> seen.add("late"));

    assertThat(seen).containsExactly("early", "late");
    assertThat(c.aborted()).isTrue();
    assertThat(c.reason()).containsSame(first);
  }

  @Test
  void theNeverSignalNeverFires() {
    AbortSignal never = AbortSignal.never();
    List<String> seen = new ArrayList<>();
    never.onAbort(() -> seen.add("x"));
    assertThat(never.aborted()).isFalse();
    assertThat(never.reason()).isEmpty();
    assertThat(seen).isEmpty();
    Registration.noop().close();
  }
}
