package dev.horae.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.gate.ResumeCommand;
import dev.horae.gate.ResumeResult;
import dev.horae.gate.runtime.ResumeOutcome;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.time.SystemTime;
import dev.horae.store.FileSessionStore;
import dev.horae.store.MemorySessionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's own rules, apart from turns: each builder setting once and the combinations it
 * refuses, what {@code close()} releases and in which order, and the answers to calls on sessions
 * no agent holds.
 */
@Timeout(30)
class HoraeRuntimeRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  @Test
  void everySettingIsRefusedTheSecondTime(@TempDir Path dir) {
    MemorySessionStore store = new MemorySessionStore();
    SystemTime time = new SystemTime();
    try {
      List<Consumer<HoraeRuntime.Builder>> settings = List.of(
          b -> b.store(store), b -> b.dataDir(dir), b -> b.clock(CLOCK), b -> b.timers(time),
          b -> b.processZone(() -> ZoneOffset.UTC), b -> b.ids(java.util.UUID::randomUUID), b -> b.warnings((m, c) -> {}),
          b -> b.model(r -> CompletableFuture.completedFuture(ModelResponse.text("x"))),
          b -> b.leases(store.leases("n", Duration.ofSeconds(30), CLOCK)), b -> b.dispatchScheduledActions(false));
      List<String> names = List.of("store", "dataDir", "clock", "timers", "processZone", "ids", "warnings", "model",
          "leases", "dispatchScheduledActions");
      for (int i = 0; i < settings.size(); i++) {
        HoraeRuntime.Builder b = HoraeRuntime.builder();
        settings.get(i).accept(b);
        Consumer<HoraeRuntime.Builder> again = settings.get(i);
        assertThatThrownBy(() -> again.accept(b)).as(names.get(i))
            .isInstanceOf(IllegalStateException.class).hasMessage(names.get(i) + " was already set for this runtime");
      }
    } finally {
      time.close();
    }
  }

  @Test
  void theCombinationsARuntimeCannotHaveAreRefused(@TempDir Path dir) {
    MemorySessionStore store = new MemorySessionStore();
    assertThatThrownBy(() -> HoraeRuntime.builder().dataDir(dir).store(store))
        .isInstanceOf(IllegalStateException.class).hasMessage("a runtime has either a store or a data folder, not both");
    assertThatThrownBy(() -> HoraeRuntime.builder().leases(store.leases("n", Duration.ofSeconds(30), CLOCK)).store(store).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("leases carry their own store; give leases or a store or a data folder, not both");
    assertThatThrownBy(() -> HoraeRuntime.builder().leases(store.leases("n", Duration.ofSeconds(30), CLOCK)).dataDir(dir).build())
        .isInstanceOf(IllegalStateException.class);
    SystemTime time = new SystemTime();
    try {
      assertThatThrownBy(() -> HoraeRuntime.builder().timers(time).build())
          .isInstanceOf(NullPointerException.class).hasMessage("a runtime given its own timers needs its own clock too");
    } finally {
      time.close();
    }
  }

  @Test
  void aDataFolderIsOpenedAsAFileStoreWhoseLogsAnotherStoreReadsAfterClose(@TempDir Path dir) throws Exception {
    HoraeRuntime first = HoraeRuntime.builder().dataDir(dir).clock(CLOCK)
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("hi"))).build();
    assertThat(first.store()).isInstanceOf(FileSessionStore.class);
    RuntimeAgent agent = first.openAgent("s-1");
    first.prompt(agent, "hello");
    agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    first.close();
    try (FileSessionStore reopened = FileSessionStore.open(dir)) {
      assertThat(reopened.load("s-1").orElseThrow().events()).extracting(SessionEvent::type)
          .contains(EventTypes.TURN_START, EventTypes.TURN_END);
    }
  }

  @Test
  void anIdleAgentsSessionIsFlushedToTheStoreTheApplicationGave() throws Exception {
    MemorySessionStore memory = new MemorySessionStore();
    java.util.concurrent.CountDownLatch turnPersisted = new java.util.concurrent.CountDownLatch(1);
    dev.horae.spi.session.SessionStore store = over(memory, (header, log) -> memory.persist(header, log).thenRun(() -> {
      if (log.stream().anyMatch(e -> e.type().equals(EventTypes.TURN_END))) {
        turnPersisted.countDown();
      }
    }));
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK)
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("hi"))).build()) {
      RuntimeAgent agent = horae.openAgent("s-flushed");
      horae.prompt(agent, "hello");
      // the runtime flushes when the agent turns idle, long before close
      assertThat(turnPersisted.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(memory.load("s-flushed").orElseThrow().events()).extracting(SessionEvent::type).contains(EventTypes.TURN_END);
    }
    // the application's store is the application's to close: it still serves reads
    assertThat(memory.ids()).contains("s-flushed");
  }

  @Test
  void anIdleFlushThatLosesTheRaceWithClosingItsSessionIsNotReportedButOneOnALiveSessionIs() throws Exception {
    MemorySessionStore memory = new MemorySessionStore();
    java.util.Map<String, CompletableFuture<Void>> held = new java.util.concurrent.ConcurrentHashMap<>();
    java.util.concurrent.CountDownLatch bothHeld = new java.util.concurrent.CountDownLatch(2);
    java.util.Set<String> holding = java.util.concurrent.ConcurrentHashMap.newKeySet();
    holding.add("s-closed");
    holding.add("s-live");
    dev.horae.spi.session.SessionStore store = over(memory, (header, log) -> {
      // the first flush after a turn (the idle flush) of each session is held until the test fails it
      if (log.stream().anyMatch(e -> e.type().equals(EventTypes.TURN_END)) && holding.remove(header.id())) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        held.put(header.id(), f);
        bothHeld.countDown();
        return f;
      }
      return memory.persist(header, log);
    });
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).warnings((m, c) -> warned.add(m))
        .model(r -> CompletableFuture.completedFuture(ModelResponse.text("hi"))).build()) {
      horae.prompt(horae.openAgent("s-closed"), "hello");
      horae.prompt(horae.openAgent("s-live"), "hello");
      assertThat(bothHeld.await(20, TimeUnit.SECONDS)).isTrue();
      // closing flushes again (not held) and detaches; the held idle flush then fails as a store that
      // already released the session fails it
      assertThat(horae.closeSession("s-closed")).isTrue();
      java.util.Objects.requireNonNull(held.get("s-closed")).completeExceptionally(new IllegalStateException("session s-closed is closed in this store"));
      java.util.Objects.requireNonNull(held.get("s-live")).completeExceptionally(new IllegalStateException("disk full"));
      assertThat(memory.load("s-closed").orElseThrow().events()).extracting(SessionEvent::type).contains(EventTypes.TURN_END);
      assertThat(warned).containsExactly("flush of s-live failed; its last turn may not be durable");
    }
  }

  @Test
  void closeReleasesRegisteredResourcesLastFirstAndWarnsOfOneThatFails() {
    List<String> closed = Collections.synchronizedList(new ArrayList<>());
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).warnings((m, c) -> warned.add(m + c.map(e -> ": " + e.getMessage()).orElse(""))).build();
    horae.closeOnShutdown(() -> closed.add("first"));
    horae.closeOnShutdown(new AutoCloseable() {
      @Override
      public void close() {
        throw new IllegalStateException("stuck");
      }

      @Override
      public String toString() {
        return "the broken one";
      }
    });
    horae.closeOnShutdown(() -> closed.add("third"));
    horae.close();
    assertThat(closed).containsExactly("third", "first");
    assertThat(warned).containsExactly("closing the broken one failed: stuck");
  }

  @Test
  void theRuntimesThreadsAreDaemonsSoTheyNeverHoldTheJvmOpen() throws Exception {
    AtomicBoolean daemon = new AtomicBoolean();
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      daemon.set(Thread.currentThread().isDaemon() && Thread.currentThread().getName().startsWith("horae-driver-"));
      return CompletableFuture.completedFuture(ModelResponse.text("ok"));
    }).build()) {
      RuntimeAgent agent = horae.openAgent("s-threads");
      horae.prompt(agent, "hello");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
    assertThat(daemon).isTrue();
  }

  @Test
  void answersForSessionsNoAgentHoldsAreRejectionsNotFailures() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      ResumeOutcome approve = horae.approve("run-x").toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(approve).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
      ResumeOutcome deny = horae.deny("run-x", "no").toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(deny).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> assertThat(r.code()).isEqualTo("notAwaiting"));
      ResumeCommand command = ResumeCommand.of("corr", "run-x", "closed-session", "snap", "fp", ResumeResult.allow(),
          CLOCK.millis());
      ResumeOutcome resume = horae.resume(command).toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(resume).isInstanceOfSatisfying(ResumeOutcome.Rejected.class, r -> {
        assertThat(r.code()).isEqualTo("agentNotOpen");
        assertThat(r.message()).isEqualTo("no open agent holds session closed-session; open it with openAgent first");
      });
      assertThat(horae.performScheduledActions().toCompletableFuture().get(5, TimeUnit.SECONDS)).isEmpty();
      assertThat(horae.awaiting()).isEmpty();
    }
  }

  @Test
  void aProvidedServiceIsFoundAndAnEmbeddedRuntimeUsesTheFileStore(@TempDir Path dir) {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      horae.provide(StringBuilder.class, new StringBuilder("mine"));
      assertThat(horae.service(StringBuilder.class)).hasValueSatisfying(s -> assertThat(s.toString()).isEqualTo("mine"));
      assertThat(horae.store()).isInstanceOf(MemorySessionStore.class);
      assertThat(horae.wallClock()).isSameAs(CLOCK);
    }
    try (HoraeRuntime embedded = HoraeRuntime.embedded(dir)) {
      assertThat(embedded.store()).isInstanceOf(FileSessionStore.class);
    }
  }

  /** A store that reads from {@code memory} and persists through {@code persist}; other tests of the package use it too. */
  static dev.horae.spi.session.SessionStore over(MemorySessionStore memory,
      dev.horae.spi.session.DurabilityListener persist) {
    return new dev.horae.spi.session.SessionStore() {
      @Override
      public Optional<dev.horae.spi.session.StoredSession> load(String id) {
        return memory.load(id);
      }

      @Override
      public java.util.Set<String> ids() {
        return memory.ids();
      }

      @Override
      public java.util.concurrent.CompletionStage<Void> persist(dev.horae.spi.session.SessionHeader header, List<SessionEvent> log) {
        return persist.persist(header, log);
      }
    };
  }
}
