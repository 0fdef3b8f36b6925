package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.schedule.ScheduleRecord;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.session.DurabilityListener;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.SessionStore;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A burst of due reminders for issue 19: {@code count} reminders created through
 * {@code schedule_create} with targets in shuffled order (pairs share a target, so ties must keep
 * creation order), all due by {@link #DUE_BY}; and the checks that every one was delivered once,
 * in due order.
 */
final class Burst {

  /** Every target lies within the hour after {@link Fixture#START}. */
  private static final Duration DUE_BY = Duration.ofHours(2);

  private static final Pattern FRAMED_ID = Pattern.compile("schedule_id_json: \"([^\"]+)\"");

  /** Ids in the order the spec requires them to be dispatched: target, then creation order. */
  final List<String> dueOrder;

  private Burst(List<String> dueOrder) {
    this.dueOrder = dueOrder;
  }

  /**
   * A host whose flushes are proven by {@code durability} alone. The testkit's own store is only
   * the persistence service Schedule requires to be present (it never calls it), because as a
   * flush listener it copies the whole log on every flush, which a burst of 20,000 flushes cannot
   * afford.
   */
  static TestHost hostOver(DurabilityListener durability) {
    TestHost host = TestHost.builder().start(Fixture.START).persistence(false).invariants(false).build();
    host.sessions().onFlush(durability);
    host.provide(SessionStore.class, host.store());
    return host;
  }

  /** A flush listener that proves every flush at once and keeps nothing. */
  static CompletionStage<Void> instant(SessionHeader header, List<SessionEvent> log) {
    return CompletableFuture.completedFuture(null);
  }

  /** Creates the reminders through the tool; returns the expected dispatch order. */
  static Burst create(Fixture f, TestAgent agent, int count, long seed) {
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      slots.add(i / 2);
    }
    Collections.shuffle(slots, new Random(seed));
    long base = Fixture.START.toEpochMilli() + 60_000;
    List<ScheduleRecord> created = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long target = base + slots.get(i) * 7L;
      String at = Instant.ofEpochMilli(target).toString();
      String text = f.create(agent, "{\"prompt\":\"burst " + i + "\",\"at\":\"" + at + "\"}");
      assertThat(text).startsWith("{\"id\":\"schedule-" + (i + 1) + "\"");
      created.add(new ScheduleRecord.At("schedule-" + (i + 1), "burst " + i, target));
    }
    List<ScheduleRecord> due = new ArrayList<>(created);
    // List.sort is stable: equal targets keep creation order
    due.sort(Comparator.comparingLong(ScheduleRecord::scheduledAtMillis));
    return new Burst(due.stream().map(ScheduleRecord::id).toList());
  }

  /**
   * Makes every reminder due at once: the wall clock jumps past the last target, then the owner's
   * armed timer fires (on the monotonic clock) and its drive finds the whole burst overdue. A plain
   * {@code advance} would instead run one timer per target, each at its own due point, so the
   * owner would never see more than the reminders sharing one target.
   */
  static void makeAllDue(TestHost host) {
    host.time().setWall(Fixture.START.plus(DUE_BY));
    host.advance(DUE_BY);
  }

  /** Ids of the followups, in the order they were queued. */
  static List<String> followedUp(TestAgent agent) {
    List<String> ids = new ArrayList<>();
    for (UserMessage m : agent.followups()) {
      List<String> framed = framedIds(m.text());
      assertThat(framed).as("framing of %s", m.text()).hasSize(1);
      ids.addAll(framed);
    }
    return ids;
  }

  /** The schedule ids framed in a message text (none for a message that is not a reminder). */
  static List<String> framedIds(String text) {
    List<String> ids = new ArrayList<>();
    Matcher matcher = FRAMED_ID.matcher(text);
    while (matcher.find()) {
      ids.add(matcher.group(1));
    }
    return ids;
  }

  /** Ids of the dispatch changes of a log, in log order. */
  static List<String> dispatched(List<SessionEvent> log) {
    List<String> ids = new ArrayList<>();
    for (SessionEvent e : log) {
      if (e.type().equals(EventTypes.SCHEDULE_CHANGE)
          && e.data().path("operation").asText().equals("dispatch")) {
        ids.add(e.data().path("id").asText());
      }
    }
    return ids;
  }

  /** Every reminder was queued once and dispatched once, both in due order. */
  void assertDeliveredOnceInDueOrder(TestAgent agent, Session session) {
    assertThat(followedUp(agent)).containsExactlyElementsOf(dueOrder);
    assertThat(dispatched(session.events())).containsExactlyElementsOf(dueOrder);
  }
}
