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
import org.junit.jupiter.api.DisplayName;
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
          b -> b.leases(store.leases("n", Duration.ofSeconds(30), CLOCK)), b -> b.dispatchScheduledActions(false),
          b -> b.dueIndexer(HoraeRuntime.dueIndexer()), b -> b.dueSessions(DueSessions.Settings.DEFAULTS),
          b -> b.awaitDeadline(Duration.ofMinutes(1)), b -> b.gatePlugins(List.of()), b -> b.maxSteps(8));
      List<String> names = List.of("store", "dataDir", "clock", "timers", "processZone", "ids", "warnings", "model",
          "leases", "dispatchScheduledActions", "dueIndexer", "dueSessions", "awaitDeadline", "gatePlugins", "maxSteps");
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
  void openingAStoredOrANewSessionNeverListsEverySessionOfTheStore() {
    MemorySessionStore memory = new MemorySessionStore();
    java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
    dev.horae.spi.session.SessionStore store = new dev.horae.spi.session.SessionStore() {
      @Override
      public Optional<dev.horae.spi.session.StoredSession> load(String id) {
        return memory.load(id);
      }

      @Override
      public java.util.Set<String> ids() {
        listings.incrementAndGet();
        return memory.ids();
      }

      @Override
      public boolean contains(String id) {
        return memory.contains(id);
      }

      @Override
      public java.util.concurrent.CompletionStage<Void> persist(dev.horae.spi.session.SessionHeader header, List<SessionEvent> log) {
        return memory.persist(header, log);
      }
    };
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).build()) {
      horae.openAgent("s-new");
    }
    assertThat(memory.contains("s-new")).isTrue();
    long stored = memory.load("s-new").orElseThrow().events().size();
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).build()) {
      // a session of a store with a million others is opened by its id alone
      assertThat(horae.openAgent("s-new").session().length()).isGreaterThanOrEqualTo(stored);
    }
    assertThat(listings).hasValue(0);
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
      // the held persist counted down before the driver attached the flush's failure handler, so a
      // failure completed first is handled on the driver thread a moment later
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> !warned.isEmpty());
    }
    assertThat(warned).containsExactly("flush of s-live failed; its last turn may not be durable");
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
  void closeStopsTheTimerThreadTheRuntimeMadeAndLeavesTimersItWasGiven() {
    dev.horae.spi.time.Timers made;
    try (HoraeRuntime own = HoraeRuntime.builder().build()) {
      made = own.timers();
    }
    // no timer thread outlives the runtime that started it
    assertThatThrownBy(() -> made.schedule(java.time.Duration.ofSeconds(1), () -> { }))
        .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    ManualTimers given = new ManualTimers(CLOCK.instant());
    try (HoraeRuntime borrowed = HoraeRuntime.builder().clock(given).timers(given).build()) {
      assertThat(borrowed.timers()).isSameAs(given);
    }
    // the caller's timers are the caller's to close
    var unused = given.schedule(java.time.Duration.ofSeconds(1), () -> { });
    assertThat(given.armed()).isEqualTo(1);
  }

  @Test
  void theGateRegistryIsOfferedAsAHostService() {
    // docs/host-guide.md, service(Class): a plugin or a conformance scenario finds ToolGates there
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      assertThat(horae.service(dev.horae.spi.gate.ToolGates.class)).containsSame(horae.gates());
    }
  }

  @Test
  void theProcessZoneGivenToTheBuilderIsTheRuntimesAndTheSystemZoneOtherwise() {
    // host contract §12.3: the process zone comes from an injected supplier, the JVM default zone by default
    java.util.function.Supplier<java.time.ZoneId> tokyo = () -> java.time.ZoneId.of("Asia/Tokyo");
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).processZone(tokyo).build()) {
      assertThat(horae.processZone()).isSameAs(tokyo);
    }
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      assertThat(horae.processZone().get()).isEqualTo(java.time.ZoneId.systemDefault());
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

  @Test
  void theDueSettingsAreRefusedWhereTheyCannotWork() {
    MemorySessionStore store = new MemorySessionStore();
    dev.horae.store.DueIndexer none = header -> events -> java.util.OptionalLong.empty();
    assertThatThrownBy(() -> HoraeRuntime.builder().store(store).dueIndexer(none).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("dueIndexer indexes the store the runtime opens itself; open the given store with "
            + "HoraeRuntime.dueIndexer(indexer) instead");
    assertThatThrownBy(() -> HoraeRuntime.builder().leases(store.leases("n", Duration.ofSeconds(30), CLOCK)).dueIndexer(none).build())
        .isInstanceOf(IllegalStateException.class);
    // a store without a due index cannot feed the worker
    assertThatThrownBy(() -> HoraeRuntime.builder().store(over(store, store)).dueSessions(DueSessions.Settings.DEFAULTS).build())
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("dueSessions needs a store with a due index");
    try (HoraeRuntime plain = HoraeRuntime.builder().clock(CLOCK).build()) {
      assertThat(plain.dueSessions()).isEmpty();
      assertThatThrownBy(plain::startDueSessions).isInstanceOf(IllegalStateException.class)
          .hasMessage("this runtime was built without dueSessions");
    }
  }

  @Test
  void openingASessionTwiceGivesTheLiveAgentAndAnUnknownZoneIsRefused() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent agent = horae.openAgent("s-zoned", "Europe/Amsterdam");
      assertThat(agent.session().header().timeZone()).hasValue("Europe/Amsterdam");
      assertThat(horae.openAgent("s-zoned")).isSameAs(agent);
      assertThat(horae.openAgent("s-plain").session().header().timeZone()).isEmpty();
      assertThatThrownBy(() -> horae.openAgent("s-bad", "Mars/Olympus"))
          .isInstanceOfSatisfying(dev.horae.spi.message.PromptRejectedException.class,
              e -> assertThat(e.code()).isEqualTo("invalid-time-zone"));
      assertThat(horae.agents().get("s-bad")).isEmpty();
    }
  }

  @Test
  void anRpcPromptCarriesTheAdmittedClientZoneAndABadOneQueuesNothing() {
    java.util.UUID fixed = java.util.UUID.fromString("00000000-0000-0000-0000-000000000007");
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).ids(() -> fixed).build()) {
      RuntimeAgent agent = horae.openAgent("s-rpc");
      dev.horae.spi.message.UserMessage m = horae.prompt(agent, "hello", "Europe/Amsterdam");
      assertThat(m.source().clientTimeZone()).hasValue("Europe/Amsterdam");
      assertThat(m.source().kind()).isEqualTo("user");
      assertThat(m.source().rpcId()).hasValue("rpc-" + fixed);
      assertThat(agent.pendingNextTurn()).containsExactly(m);
      assertThatThrownBy(() -> horae.prompt(agent, "again", "Not/AZone"))
          .isInstanceOfSatisfying(dev.horae.spi.message.PromptRejectedException.class,
              e -> assertThat(e.code()).isEqualTo("invalid-time-zone"));
      assertThat(agent.pendingNextTurn()).containsExactly(m);
    }
  }

  @Test
  void onlyACompletedUnpromptedTurnWithTextIsAnUnpromptedReply() throws Exception {
    java.util.concurrent.atomic.AtomicInteger call = new java.util.concurrent.atomic.AtomicInteger();
    List<String> replies = Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(4);
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> switch (call.incrementAndGet()) {
      case 1 -> CompletableFuture.completedFuture(ModelResponse.text("to the user"));
      case 2 -> CompletableFuture.completedFuture(ModelResponse.text(""));
      case 3 -> CompletableFuture.failedFuture(new IllegalStateException("model down"));
      default -> CompletableFuture.completedFuture(ModelResponse.text("the reminder is due"));
    }).warnings((m, c) -> {}).build()) {
      var unused = horae.onUnpromptedReply(o -> replies.add(o.finalText()));
      var unusedEnd = horae.agents().onTurnEnd(o -> ended.countDown());
      RuntimeAgent agent = horae.openAgent("s-unprompted");
      horae.prompt(agent, "asked");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      for (int i = 0; i < 3; i++) {
        agent.followup(horae.messages().text("reminder " + i, dev.horae.spi.message.MessageSource.plugin("test-plugin")));
        agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      }
      assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(replies).containsExactly("the reminder is due");
  }

  @Test
  void aSessionNoAgentHoldsIsNotClosedAndAFailedLastFlushIsReported() throws Exception {
    MemorySessionStore memory = new MemorySessionStore();
    AtomicBoolean failing = new AtomicBoolean();
    dev.horae.spi.session.SessionStore store = over(memory, (header, log) -> failing.get()
        ? CompletableFuture.failedFuture(new IllegalStateException("disk full")) : memory.persist(header, log));
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().store(store).clock(CLOCK).warnings((m, c) -> warned.add(m)).build()) {
      assertThat(horae.closeSession("never-opened")).isFalse();
      RuntimeAgent closing = horae.openAgent("s-closing");
      RuntimeAgent open = horae.openAgent("s-open");
      failing.set(true);
      assertThat(horae.closeSession("s-closing")).isTrue();
      assertThat(horae.agents().get("s-closing")).isEmpty();
      assertThat(closing.disposed()).isTrue();
      assertThat(open.disposed()).isFalse();
      assertThat(horae.sessions().get("s-closing")).isEmpty();
      assertThat(warned).containsExactly("last flush of s-closing failed; its tail may not be durable");
      // closed again: nothing is live any more
      assertThat(horae.closeSession("s-closing")).isFalse();
    }
    assertThat(warned).endsWith("final flush of s-open failed; its tail may not be durable");
  }

  @Test
  @DisplayName("a lost lease closes this node's agent of that session only, and says so (docs/runtime.md: agents on that session closed)")
  void aLostLeaseClosesTheAgentOfThatSessionOnlyAndSaysSo() throws Exception {
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    MemorySessionStore store = new MemorySessionStore();
    List<String> warned = Collections.synchronizedList(new ArrayList<>());
    dev.horae.store.SessionLeases leases = store.leases("node-a", Duration.ofSeconds(30), time);
    try (HoraeRuntime horae = HoraeRuntime.builder().leases(leases).clock(time).timers(time).warnings((m, c) -> warned.add(m)).build()) {
      RuntimeAgent lost = horae.openAgent("s-lost");
      RuntimeAgent kept = horae.openAgent("s-kept");
      dev.horae.store.SessionLeaseKeeper keeper = horae.leaseKeeper().orElseThrow();
      java.util.concurrent.CountDownLatch told = new java.util.concurrent.CountDownLatch(1);
      // registered after the runtime's own listener, so it runs once the runtime has acted
      var unused = keeper.onLost((lease, why) -> told.countDown());
      // released behind the keeper's back: its next renewal finds the lease no longer current
      assertThat(leases.release(keeper.lease("s-lost").orElseThrow())).isTrue();
      time.advance(Duration.ofSeconds(10));
      assertThat(told.await(20, TimeUnit.SECONDS)).isTrue();
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(lost::disposed);
      assertThat(horae.agents().get("s-lost")).isEmpty();
      assertThat(kept.disposed()).isFalse();
      assertThat(horae.agents().get("s-kept")).containsSame(kept);
      assertThat(keeper.owns("s-kept")).isTrue();
      assertThat(warned).contains("the lease of session s-lost was lost; closing agent s-lost")
          .noneMatch(w -> w.contains("s-kept"));
    }
  }

  @Test
  @DisplayName("an interrupted close or closeSession stops waiting for a stuck disposal effect, still flushes, and keeps the interrupt")
  void anInterruptedCloseStopsWaitingForDisposalStillFlushesAndKeepsTheInterrupt() {
    MemorySessionStore memory = new MemorySessionStore();
    ManualTimers time = new ManualTimers(Instant.parse("2026-12-01T10:00:00Z"));
    HoraeRuntime horae = HoraeRuntime.builder().store(memory).clock(time).timers(time).build();
    try {
      for (String id : List.of("s-stuck-1", "s-stuck-2")) {
        RuntimeAgent agent = horae.openAgent(id);
        // an effect that never completes: only the bound or an interrupt ends the wait for it
        var unused = agent.scope().onDispose(CompletableFuture::new);
        agent.session().append("test/tail", dev.horae.spi.session.Json.parse("{}"));
      }
      Thread.currentThread().interrupt();
      assertThat(horae.closeSession("s-stuck-1")).isTrue();
      assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
      assertThat(memory.load("s-stuck-1").orElseThrow().events()).extracting(SessionEvent::type).containsExactly("test/tail");
      Thread.currentThread().interrupt();
      horae.close();
      assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
      assertThat(memory.load("s-stuck-2").orElseThrow().events()).extracting(SessionEvent::type).containsExactly("test/tail");
    } finally {
      var unused = Thread.interrupted();
      horae.close();
    }
  }

  @Test
  @DisplayName("direct persists of a leased runtime go through its lease keeper; close detaches every session and closes the keeper")
  void aLeasedRuntimesStoreServiceIsItsKeeperAndCloseDetachesAndClosesTheKeeper() {
    MemorySessionStore store = new MemorySessionStore();
    try (HoraeRuntime plain = HoraeRuntime.builder().store(store).clock(CLOCK).build()) {
      assertThat(plain.service(dev.horae.spi.session.SessionStore.class)).containsSame(store);
    }
    HoraeRuntime leased = HoraeRuntime.builder().leases(store.leases("node-a", Duration.ofSeconds(30), CLOCK)).clock(CLOCK).build();
    dev.horae.store.SessionLeaseKeeper keeper = leased.leaseKeeper().orElseThrow();
    // a leased runtime's direct persists are fenced too
    assertThat(leased.service(dev.horae.spi.session.SessionStore.class)).containsSame(keeper);
    var unusedAgent = leased.openAgent("s-a");
    assertThat(leased.sessions().list()).hasSize(1);
    leased.close();
    assertThat(leased.sessions().list()).isEmpty();
    assertThat(keeper.owns("s-a")).isFalse();
    assertThatThrownBy(() -> keeper.hold("s-b")).isInstanceOf(IllegalStateException.class);
    // released: another node takes the session at once, long before the lease would expire
    assertThat(store.leases("node-b", Duration.ofSeconds(30), CLOCK).acquire("s-a").owner()).isEqualTo("node-b");
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
