package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import dev.horae.spi.model.ChatMessage;
import dev.horae.spi.model.ModelRequest;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, on the testkit host with {@code ManualTime}: a burst of 10,000 due reminders is
 * delivered completely, each exactly once, in due order (target, then creation order), whether the
 * owner's stages complete synchronously on the caller's thread or on another thread, and the owner's
 * stack does not grow per dispatch. With a model attached, each reminder of a burst still gets its
 * own claim and its own turn (spec §12.4). Before the fix the owner composed {@code drive → claim → drive}
 * recursively and stopped with a {@code StackOverflowError} after about 900 dispatches.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BurstDeliveryTest {

  private static final int COUNT = 10_000;

  private final ExecutorService elsewhere = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopThread() {
    elsewhere.shutdownNow();
  }

  // "scale": a load test, run by every build but left out of mutation runs (docs/testing.md, "Settings")
  @Tag("scale")
  @Test
  void tenThousandDueAtOnceAreDeliveredOnceInDueOrderAtConstantStackDepth() {
    TestHost host = Burst.hostOver(Burst::instant);
    Fixture f = new Fixture(host);
    TestAgent a = f.agent();
    Burst burst = Burst.create(f, a, COUNT, 19);
    List<Integer> depths = new ArrayList<>();
    host.sessions().onEvent((s, e) -> {
      if (isDispatch(e)) {
        depths.add(Thread.currentThread().getStackTrace().length);
      }
    });

    long flushes = f.owner(a).flushes();

    Burst.makeAllDue(host);

    burst.assertDeliveredOnceInDueOrder(a, a.session());
    // one claim per reminder: a preflight and a dispatch barrier each, then one last preflight
    // (docs/schedule.md, "Bursts")
    assertThat(f.owner(a).flushes() - flushes).isEqualTo(2L * COUNT + 1);
    // every dispatch ran on this thread (all stages synchronous), from one and the same depth
    assertThat(depths).hasSize(COUNT);
    assertThat(depths.stream().mapToInt(Integer::intValue).max().orElseThrow())
        .isLessThanOrEqualTo(depths.get(0) + 8);
    assertOwnerHealthy(f, a);
    assertThat(a.maintenanceCalls()).isEqualTo(COUNT);
  }

  /**
   * The guard against the recursion coming back: the whole burst runs on a thread with a 256 KiB
   * stack, every stage completing synchronously on it. Composing {@code drive → claim → drive}
   * recursively adds frames per dispatch and overflows such a stack after a few hundred reminders
   * (the overflow is caught by the stage and faults the owner); the iterative loop needs the same
   * few hundred frames for the first reminder and for the last.
   */
  @Test
  void aBurstDrainedOnASmallStackDeliversEveryReminder() throws Exception {
    TestHost host = Burst.hostOver(Burst::instant);
    Fixture f = new Fixture(host);
    TestAgent a = f.agent();
    Burst burst = Burst.create(f, a, COUNT, 41);
    AtomicReference<Throwable> failure = new AtomicReference<>();

    Thread small = new Thread(null, () -> {
      try {
        Burst.makeAllDue(host);
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "small-stack-burst", 256 * 1024);
    small.start();
    small.join(TimeUnit.SECONDS.toMillis(60));

    assertThat(small.isAlive()).isFalse();
    assertThat(failure.get()).isNull();
    burst.assertDeliveredOnceInDueOrder(a, a.session());
    assertOwnerHealthy(f, a);
  }

  @Test
  void aBurstWhoseFlushesCompleteOnAnotherThreadIsDeliveredCompletely() throws Exception {
    AtomicInteger persists = new AtomicInteger();
    // every third flush completes later, on another thread; the others complete on the caller's
    TestHost host = Burst.hostOver((header, log) -> persists.incrementAndGet() % 3 == 0
        ? CompletableFuture.runAsync(() -> {}, elsewhere)
        : Burst.instant(header, log));
    Fixture f = new Fixture(host);
    TestAgent a = f.agent();
    Burst burst = Burst.create(f, a, COUNT, 23);
    CountDownLatch delivered = new CountDownLatch(COUNT);
    host.sessions().onEvent((s, e) -> {
      if (isDispatch(e)) {
        delivered.countDown();
      }
    });

    Burst.makeAllDue(host);

    assertThat(delivered.await(60, TimeUnit.SECONDS)).isTrue();
    // disposal awaits the run still in flight (the last dispatch barrier), so nothing moves after it
    f.installation.close().toCompletableFuture().get(60, TimeUnit.SECONDS);
    burst.assertDeliveredOnceInDueOrder(a, a.session());
    assertThat(persists.get()).isGreaterThan(2 * COUNT);
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(host.warnings().messages()).isEmpty();
  }

  @Test
  void overdueRecordsFoundAtAdoptionAreAllDeliveredInDueOrder() {
    // the restart case: the log already holds the burst when the owner starts
    TestHost host = Burst.hostOver(Burst::instant);
    Fixture f = new Fixture(host);
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    long past = Fixture.START.toEpochMilli() - 3_600_000L;
    List<String> dueOrder = new ArrayList<>();
    for (int i = 1; i <= COUNT; i++) {
      // descending targets: due order is the reverse of creation order
      session.append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(new ScheduleChange.Create(
          new ScheduleRecord.At("schedule-" + i, "overdue " + i, past + COUNT - i))));
      dueOrder.add(0, "schedule-" + i);
    }

    TestAgent a = host.agentFor(session);
    host.settle();

    assertThat(Burst.followedUp(a)).containsExactlyElementsOf(dueOrder);
    assertThat(Burst.dispatched(session.events())).containsExactlyElementsOf(dueOrder);
    assertOwnerHealthy(f, a);
  }

  @Test
  void withAModelEachReminderOfABurstGetsItsOwnTurnInDueOrder() {
    TestHost host = Burst.hostOver(Burst::instant);
    Fixture f = new Fixture(host);
    TestAgent a = f.agent();
    ScriptedModel model = new ScriptedModel();
    a.useModel(model);
    int count = 500;
    Burst burst = Burst.create(f, a, count, 29);

    Burst.makeAllDue(host);

    burst.assertDeliveredOnceInDueOrder(a, a.session());
    // spec §12.4: one claim and one reminder turn per record; the next claim waits for idle
    List<String> turns = new ArrayList<>();
    for (ModelRequest request : model.requests()) {
      for (ChatMessage.User m : request.latestUserMessages()) {
        turns.addAll(Burst.framedIds(m.text()));
      }
    }
    assertThat(model.requests()).hasSize(count);
    assertThat(turns).containsExactlyElementsOf(burst.dueOrder);
    StringBuilder shape = new StringBuilder();
    for (SessionEvent e : a.session().events()) {
      if (isDispatch(e)) {
        shape.append('D');
      } else if (e.type().equals(EventTypes.TURN_START)) {
        shape.append('T');
      }
    }
    assertThat(shape.toString()).isEqualTo("DT".repeat(count));
    assertOwnerHealthy(f, a);
  }

  private static void assertOwnerHealthy(Fixture f, TestAgent a) {
    assertThat(f.owner(a).faulted()).isFalse();
    assertThat(f.host.warnings().messages()).isEmpty();
    assertThat(f.host.time().pendingTimers()).isZero();
    assertThat(f.list(a)).isEqualTo("[]");
  }

  private static boolean isDispatch(SessionEvent e) {
    return e.type().equals(EventTypes.SCHEDULE_CHANGE)
        && e.data().path("operation").asText().equals("dispatch");
  }
}
