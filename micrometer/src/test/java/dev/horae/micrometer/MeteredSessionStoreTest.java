package dev.horae.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.session.StoredSession;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A flush is timed from persist until its stage completes, on the registry's clock. */
class MeteredSessionStoreTest {

  private final MockClock clock = new MockClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);

  /** Completes each persist only when the test says so. */
  private static final class SlowStore implements SessionStore {
    CompletableFuture<Void> pending = new CompletableFuture<>();
    boolean throwing;

    @Override
    public CompletionStage<Void> persist(SessionHeader header, List<SessionEvent> log) {
      if (throwing) {
        throw new IllegalStateException("store closed");
      }
      return pending;
    }

    @Override
    public Optional<StoredSession> load(String id) {
      return Optional.empty();
    }

    @Override
    public Set<String> ids() {
      return Set.of("a");
    }

    @Override
    public boolean contains(String id) {
      // answered without listing, so the wrapper must forward it rather than list
      return id.equals("b");
    }
  }

  @Test
  void aFlushIsTimedUntilDurableAndAFailureApart() {
    SlowStore slow = new SlowStore();
    MeteredSessionStore store = MeteredSessionStore.wrap(slow, registry);
    SessionHeader header = SessionHeader.root("a", 0L, Optional.empty());
    var stage = store.persist(header, List.of());
    clock.add(Duration.ofMillis(7));
    slow.pending.complete(null);
    assertThat(stage.toCompletableFuture()).isDone();
    var ok = registry.get(HoraeMetrics.STORE_FLUSH).tags("outcome", "success").timer();
    assertThat(ok.count()).isEqualTo(1);
    assertThat(ok.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(7.0);

    slow.pending = new CompletableFuture<>();
    var failed = store.persist(header, List.of());
    clock.add(Duration.ofMillis(3));
    slow.pending.completeExceptionally(new IllegalStateException("disk full"));
    assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
    slow.throwing = true;
    assertThatThrownBy(() -> store.persist(header, List.of())).hasMessage("store closed");
    var bad = registry.get(HoraeMetrics.STORE_FLUSH).tags("outcome", "failure").timer();
    assertThat(bad.count()).isEqualTo(2);
    assertThat(bad.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);

    assertThat(store.ids()).containsExactly("a");
    assertThat(store.contains("b")).isTrue();
    assertThat(store.contains("a")).isFalse();
    assertThat(store.load("a")).isEmpty();
    assertThat(store.delegate()).isSameAs(slow);
  }
}
