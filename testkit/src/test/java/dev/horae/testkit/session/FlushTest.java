package dev.horae.testkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.Registration;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FlushTest extends SessionsFixture {

  private final Session session = sessions.create(CreateOptions.DEFAULT);

  private static CompletableFuture<Boolean> f(CompletionStage<Boolean> stage) {
    return stage.toCompletableFuture();
  }

  private static Throwable failureOf(CompletionStage<Boolean> stage) {
    assertThat(f(stage)).isCompletedExceptionally();
    try {
      f(stage).get(0, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause == null) {
        throw new AssertionError("a failure without a cause", e);
      }
      return cause;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void withoutAnyListenerFlushCompletesWithFalse() {
    assertThat(f(sessions.flush(session))).isCompletedWithValue(false);
  }

  @Test
  void withAStoreThatCompletesFlushIsTrueAndTheStoreKeepsACopy() {
    sessions.onFlush(store);
    session.append("a", json("{\"v\":1}"));

    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);

    assertThat(store.ids()).containsExactly(session.id());
    assertThat(store.load(session.id()).orElseThrow().events()).isEqualTo(session.events());
    assertThat(store.load(session.id()).orElseThrow().header()).isEqualTo(session.header());
    assertThat(store.persistCount(session.id())).isEqualTo(1);
    assertThat(sessions.flushCount(session)).isEqualTo(1);
  }

  @Test
  void theStoredCopyIsDeepAndLoadHandsOutCopies() {
    sessions.onFlush(store);
    session.append("a", json("{\"v\":1}"));
    sessions.flush(session);

    var loaded = store.load(session.id()).orElseThrow();
    ((com.fasterxml.jackson.databind.node.ObjectNode) loaded.events().get(0).data()).put("v", 99);

    assertThat(store.load(session.id()).orElseThrow().events().get(0).data()).isEqualTo(json("{\"v\":1}"));
    assertThat(session.events().get(0).data()).isEqualTo(json("{\"v\":1}"));
  }

  @Test
  void aListenerFailureCompletesTheFlushExceptionallyAndKeepsNothing() {
    sessions.onFlush(store);
    IOException disk = new IOException("disk full");
    store.script().thenFail(disk);

    assertThat(failureOf(sessions.flush(session))).isSameAs(disk);
    assertThat(store.load(session.id())).isEmpty();
    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
  }

  @Test
  void aSynchronousThrowMakesFlushThrow() {
    sessions.onFlush(store);
    IllegalStateException thrown = new IllegalStateException("writer gone");
    store.script().thenThrow(thrown);

    assertThatThrownBy(() -> sessions.flush(session)).isSameAs(thrown);
    assertThat(store.load(session.id())).isEmpty();
    assertThat(sessions.flushCount(session)).isEqualTo(1);
    assertThat(store.persistCount(session.id())).isEqualTo(1);
  }

  @Test
  void aHeldFlushStaysPendingUntilReleasedAndCoversOnlyEarlierEvents() {
    sessions.onFlush(store);
    session.append("a", json("{}"));
    HeldFlush held = store.script().thenHold();
    assertThat(held.reached()).isFalse();

    CompletableFuture<Boolean> stage = f(sessions.flush(session));
    session.append("b", json("{}"));

    assertThat(held.reached()).isTrue();
    assertThat(stage).isNotDone();
    assertThat(store.load(session.id())).isEmpty();

    held.release();

    assertThat(stage).isCompletedWithValue(true);
    assertThat(held.settled()).isTrue();
    assertThat(store.load(session.id()).orElseThrow().events()).extracting(SessionEvent::type).containsExactly("a");
  }

  @Test
  void aHeldFlushCanBeFailed() {
    sessions.onFlush(store);
    HeldFlush held = store.script().thenHold();
    CompletableFuture<Boolean> stage = f(sessions.flush(session));
    IOException lost = new IOException("lost");

    held.fail(lost);

    assertThat(failureOf(stage)).isSameAs(lost);
    assertThat(store.load(session.id())).isEmpty();
  }

  @Test
  void aLateReleasedHeldFlushNeverRollsBackANewerCopy() {
    sessions.onFlush(store);
    session.append("a", json("{}"));
    HeldFlush held = store.script().thenHold();
    CompletableFuture<Boolean> old = f(sessions.flush(session));
    session.append("b", json("{}"));
    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);

    held.release();

    assertThat(old).isCompletedWithValue(true);
    assertThat(store.load(session.id()).orElseThrow().events()).hasSize(2);
  }

  @Test
  void failOnNthFailsExactlyThatFlush() {
    sessions.onFlush(store);
    IOException third = new IOException("third");
    store.script().failOnNth(3, third);

    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
    assertThat(failureOf(sessions.flush(session))).isSameAs(third);
    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
    assertThat(store.script().remaining()).isZero();
    assertThatThrownBy(() -> store.script().failOnNth(0, third)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void scriptedOutcomesAreConsumedInOrderAndCanBeCleared() {
    sessions.onFlush(store);
    store.script().thenComplete().thenFail(new IOException("x")).thenThrow(new IllegalStateException("y"));
    assertThat(store.script().remaining()).isEqualTo(3);

    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
    store.script().clear();

    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
  }

  @Test
  void oneFailingListenerAmongSeveralFailsTheFlush() {
    sessions.onFlush(store);
    IOException second = new IOException("second");
    sessions.onFlush((h, log) -> CompletableFuture.failedFuture(second));

    assertThat(failureOf(sessions.flush(session))).isSameAs(second);
    assertThat(store.load(session.id())).isPresent();
  }

  @Test
  void theFlushWaitsForEveryListener() {
    HeldFlush held = store.script().thenHold();
    sessions.onFlush(store);
    CompletableFuture<Void> other = new CompletableFuture<>();
    sessions.onFlush((h, log) -> other);

    CompletableFuture<Boolean> stage = f(sessions.flush(session));
    held.release();
    assertThat(stage).isNotDone();
    other.complete(null);

    assertThat(stage).isCompletedWithValue(true);
  }

  @Test
  void removingTheLastListenerMakesFlushFalseAgain() {
    Registration reg = sessions.onFlush(store);
    assertThat(f(sessions.flush(session))).isCompletedWithValue(true);
    reg.close();
    assertThat(f(sessions.flush(session))).isCompletedWithValue(false);
  }

  @Test
  void flushOfASessionThatIsNotLiveFails() {
    sessions.onFlush(store);
    sessions.detach(session);

    assertThat(failureOf(sessions.flush(session))).isInstanceOf(IllegalStateException.class).hasMessageContaining("not live");
    assertThat(store.persistCount(session.id())).isZero();

    InMemorySessions other = new InMemorySessions(clock, warnings, store);
    other.onFlush(store);
    Session foreign = sessions.create(CreateOptions.DEFAULT);
    assertThat(failureOf(other.flush(foreign))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void flushesAreCountedPerSession() {
    Session other = sessions.create(CreateOptions.DEFAULT);
    sessions.flush(session);
    sessions.flush(session);
    sessions.flush(other);
    clock.advance(Duration.ofSeconds(1));

    assertThat(sessions.flushCount(session)).isEqualTo(2);
    assertThat(sessions.flushCount(other)).isEqualTo(1);
  }
}
