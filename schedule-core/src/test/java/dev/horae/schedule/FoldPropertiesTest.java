package dev.horae.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.internal.UtcInstants;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random properties (issue acceptance): prefix fold then absorb equals the full fold, every
 * valid change round-trips, and a single-byte corruption either still decodes or fails with a
 * corrupt-log error, never another exception. Each seed is printed in the test name, so a failure
 * reproduces exactly.
 */
class FoldPropertiesTest {

  private static final String ID_CHARS = "ab-1\"\\ é\u2028\u0001\u00a0";

  static ScheduleRecord randomRecord(Random rnd, String id) {
    StringBuilder prompt = new StringBuilder("p");
    for (int i = rnd.nextInt(6); i > 0; i--) {
      prompt.append(ID_CHARS.charAt(rnd.nextInt(ID_CHARS.length())));
    }
    prompt.append('q');
    long at = UtcInstants.MIN_MILLIS
        + (long) (rnd.nextDouble() * (UtcInstants.MAX_MILLIS - UtcInstants.MIN_MILLIS));
    return rnd.nextBoolean()
        ? new ScheduleRecord.At(id, prompt.toString(), at)
        : new ScheduleRecord.After(id, prompt.toString(), 1 + (long) (rnd.nextDouble() * 9.0e15), at);
  }

  static List<SessionEvent> randomValidLog(Random rnd, int size) {
    return randomValidLog(rnd, size, 0);
  }

  /**
   * A log valid for a fork of {@code seedLength}: creates, deletes and dispatches of active ids,
   * mixed with other events; the owned suffix never ends a record of the inherited prefix.
   */
  static List<SessionEvent> randomValidLog(Random rnd, int size, int seedLength) {
    List<SessionEvent> events = new ArrayList<>();
    List<String> active = new ArrayList<>();
    int next = 1;
    while (events.size() < size) {
      if (events.size() == seedLength) {
        active.clear();
      }
      int dice = rnd.nextInt(10);
      JsonNode data;
      String type = EventTypes.SCHEDULE_CHANGE;
      if (dice < 2) {
        type = rnd.nextBoolean() ? EventTypes.TURN_START : "host/other";
        data = Json.parse("{\"turn\":1}");
      } else if (dice < 6 || active.isEmpty()) {
        String id = rnd.nextInt(5) == 0 ? "custom " + next + "x" : "schedule-" + next;
        next++;
        active.add(id);
        data = ChangeCodec.encode(new ScheduleChange.Create(randomRecord(rnd, id)));
      } else {
        String id = active.remove(rnd.nextInt(active.size()));
        data = ChangeCodec.encode(dice < 8 ? new ScheduleChange.Delete(id) : new ScheduleChange.Dispatch(id));
      }
      events.add(SessionEvent.of(events.size(), type, 0, data));
    }
    return events;
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 1234, 98765, 555_555, 20260805})
  void prefixThenAbsorbEqualsFullFold(long seed) {
    Random rnd = new Random(seed);
    int seedLength = rnd.nextInt(50);
    List<SessionEvent> events = randomValidLog(rnd, 400, seedLength);
    ScheduleState full = ScheduleFold.fold(events, seedLength);
    ScheduleFold fold = ScheduleFold.start(seedLength);
    int at = seedLength;
    while (at < events.size()) {
      int step = 1 + rnd.nextInt(40);
      int end = Math.min(events.size(), at + step);
      if (rnd.nextBoolean()) {
        fold.absorbLog(events.subList(0, end));
      } else {
        fold.absorb(events.subList(at, end));
      }
      at = end;
      ScheduleState state = ScheduleFold.fold(events.subList(0, end), seedLength);
      assertThat(fold.state()).isEqualTo(state);
      assertThat(fold.activeCount()).isEqualTo(state.active().size());
      // the kept due order gives what a strict less-than scan in creation order gives
      ScheduleRecord scanned = null;
      for (ScheduleRecord r : state.active()) {
        if (scanned == null || r.scheduledAtMillis() < scanned.scheduledAtMillis()) {
          scanned = r;
        }
      }
      assertThat(fold.earliest()).isEqualTo(java.util.Optional.ofNullable(scanned));
    }
    assertThat(fold.state()).isEqualTo(full);
    assertThat(fold.allocateId()).isEqualTo(ScheduleIds.allocate(full.seenIds()));
  }

  /**
   * Id allocation on a live fold, which resumes each search where the last one ended, equals the
   * definition (spec §3.7, {@link ScheduleIds#allocate}) over a full re-fold after every change,
   * on a log whose ids crowd the numbers just above the seen count, with foreign ids, deletes and
   * dispatches mixed in, and when asked twice without a create between.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {3, 17, 2026})
  void liveAllocationEqualsTheDefinitionOverAFullReFold(long seed) {
    Random rnd = new Random(seed);
    int crowd = 300;
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < crowd; i++) {
      // every number from crowd + 1 to 2 * crowd, and a few beyond with gaps
      numbers.add(crowd + 1 + i + (i % 50 == 49 ? crowd : 0));
    }
    java.util.Collections.shuffle(numbers, rnd);
    List<SessionEvent> events = new ArrayList<>();
    List<String> active = new ArrayList<>();
    for (int n : numbers) {
      events.add(change(events, new ScheduleChange.Create(randomRecord(rnd, "schedule-" + n))));
      active.add("schedule-" + n);
    }
    ScheduleFold fold = ScheduleFold.start(0);
    fold.absorb(events);
    for (int step = 0, steps = PropertySteps.of(900); step < steps; step++) {
      String expected = ScheduleIds.allocate(ScheduleFold.fold(events, 0).seenIds());
      assertThat(fold.allocateId()).isEqualTo(expected);
      assertThat(fold.copy().allocateId()).isEqualTo(expected);
      int dice = rnd.nextInt(10);
      ScheduleChange next;
      if (dice < 5) {
        next = new ScheduleChange.Create(randomRecord(rnd, expected));
        active.add(expected);
      } else if (dice < 7) {
        // a foreign id, possibly right where the next search will look
        int size = ScheduleFold.fold(events, 0).seenIds().size();
        String id = rnd.nextBoolean() ? "schedule-" + (size + 1 + rnd.nextInt(4)) : "custom-" + step;
        if (fold.state().seenIds().contains(id)) {
          continue;
        }
        next = new ScheduleChange.Create(randomRecord(rnd, id));
        active.add(id);
      } else if (dice < 9 && !active.isEmpty()) {
        String id = active.remove(rnd.nextInt(active.size()));
        next = rnd.nextBoolean() ? new ScheduleChange.Delete(id) : new ScheduleChange.Dispatch(id);
      } else {
        // asked again with nothing created: the same answer
        continue;
      }
      SessionEvent e = change(events, next);
      events.add(e);
      fold.absorb(List.of(e));
    }
    assertThat(fold.state()).isEqualTo(ScheduleFold.fold(events, 0));
  }

  private static SessionEvent change(List<SessionEvent> log, ScheduleChange change) {
    return SessionEvent.of(log.size(), EventTypes.SCHEDULE_CHANGE, 0, ChangeCodec.encode(change));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {7, 8, 9, 10})
  void everyValidChangeRoundTrips(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      ScheduleRecord r = randomRecord(rnd, rnd.nextBoolean() ? "schedule-" + i : "id\"" + i + "\u2028x");
      ScheduleChange change = switch (rnd.nextInt(3)) {
        case 0 -> new ScheduleChange.Create(r);
        case 1 -> new ScheduleChange.Delete(r.id());
        default -> new ScheduleChange.Dispatch(r.id());
      };
      String text = ChangeCodec.encodeText(change);
      assertThat(ChangeCodec.decode(Json.parse(text))).isEqualTo(change);
      assertThat(ChangeCodec.decode(ChangeCodec.encode(change))).isEqualTo(change);
      assertThat(Json.write(ChangeCodec.encode(change)).length()).isPositive();
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12, 13, 14, 15, 16})
  void singleByteCorruptionDecodesOrFailsAsCorrupt(long seed) {
    Random rnd = new Random(seed);
    List<SessionEvent> events = randomValidLog(rnd, 60);
    int parsed = 0;
    int corrupt = 0;
    for (int trial = 0, trials = PropertySteps.of(800); trial < trials; trial++) {
      int victim = rnd.nextInt(events.size());
      byte[] bytes = Json.write(events.get(victim).data()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      bytes[rnd.nextInt(bytes.length)] = (byte) (0x20 + rnd.nextInt(0x5f));
      JsonNode data;
      try {
        data = Json.parse(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
      } catch (IllegalArgumentException notJson) {
        continue; // the host's event codec rejects it before Schedule sees it
      }
      parsed++;
      List<SessionEvent> mutated = new ArrayList<>(events);
      mutated.set(victim, SessionEvent.of(victim, events.get(victim).type(), 0, data));
      try {
        ScheduleState s = ScheduleFold.fold(mutated, 0);
        // success: every change decoded and re-encodes to something that decodes identically
        for (SessionEvent e : mutated) {
          if (e.type().equals(EventTypes.SCHEDULE_CHANGE)) {
            ScheduleChange c = ChangeCodec.decode(e.data());
            if (!ChangeCodec.decode(Json.parse(ChangeCodec.encodeText(c))).equals(c)) {
              throw new AssertionError("re-encoded change decodes differently: " + c);
            }
          }
        }
        assertThat(s.seenIds()).doesNotHaveDuplicates();
      } catch (CorruptScheduleLogException expected) {
        corrupt++;
        assertThat(expected.reason()).isNotBlank();
      }
    }
    assertThat(parsed).isPositive();
    assertThat(corrupt).isPositive();
  }
}
