package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.fuzz.FuzzRun.Verdict;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.CreateRequest;
import dev.horae.schedule.ImplicitZone;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleResult;
import dev.horae.schedule.ScheduleState;
import dev.horae.schedule.ZoneAuthority;
import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Schedule's readers: the strict {@code schedule/change} codec and the fold over a stored log
 * (documented error {@link CorruptScheduleLogException}), and the {@code schedule_create}
 * arguments a model sends ({@link CreateRequest#create}, which answers every input with a value
 * or an error value and never throws). A decoded change encodes and decodes back to itself; a
 * folded log folds to the same state when absorbed incrementally, and a log that does not fold
 * fails the incremental fold too; a created record survives the change codec.
 */
class ScheduleFuzzTest {

  static final long NOW = 1_755_650_000_000L;

  static List<byte[]> changes() {
    List<String> seeds = new ArrayList<>(List.of(
        "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"after\","
            + "\"prompt\":\"check logs\",\"afterSeconds\":30,\"scheduledAt\":\"2026-08-05T12:00:00.000Z\"}}",
        "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"s2\",\"kind\":\"at\",\"prompt\":\"stand up\","
            + "\"scheduledAt\":\"9999-12-31T23:59:59.999Z\"}}",
        "{\"version\":1.0,\"operation\":\"delete\",\"id\":\"schedule-1\"}",
        "{\"version\":1,\"operation\":\"dispatch\",\"id\":\"x\"}"));
    seeds.addAll(Corpus.args("schedule.decodeChange", "payload"));
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> logs() {
    List<String> seeds = new ArrayList<>();
    for (String fn : List.of("schedule.fold", "schedule.presentation", "schedule.implicitZone")) {
      seeds.addAll(Corpus.vectorLogs(fn));
    }
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> zoneArgs() {
    return FuzzRun.corpus(Corpus.argsObjects("schedule.implicitZone"));
  }

  static List<byte[]> createInputs() {
    List<String> seeds = new ArrayList<>(Corpus.args("schedule.create", "input"));
    seeds.add("{\"prompt\":\"x\",\"at\":{\"date\":\"2026-08-05\",\"time\":\"09:30\",\"time_zone\":\"Europe/Berlin\"}}");
    return FuzzRun.corpus(seeds);
  }

  static Verdict change(byte[] input) {
    JsonNode json;
    try {
      json = Json.parse(FuzzRun.text(input));
    } catch (IllegalArgumentException e) {
      return Verdict.UNPARSABLE;
    }
    ScheduleChange change;
    try {
      change = ChangeCodec.decode(json);
    } catch (CorruptScheduleLogException e) {
      return Verdict.DOMAIN_ERROR;
    }
    assertThat(ChangeCodec.decode(ChangeCodec.encode(change))).isEqualTo(change);
    assertThat(ChangeCodec.decode(Json.parse(ChangeCodec.encodeText(change)))).isEqualTo(change);
    return Verdict.VALID;
  }

  /** The changes of {@link #changes()} and every {@code schedule/change} payload of the vector logs. */
  static List<byte[]> storedChanges() {
    List<String> seeds = new ArrayList<>();
    for (byte[] change : changes()) {
      seeds.add(FuzzRun.text(change));
    }
    for (byte[] log : logs()) {
      events(log).ifPresent(events -> events.stream()
          .filter(e -> e.type().equals("schedule/change"))
          .forEach(e -> seeds.add(Json.write(e.data()))));
    }
    return FuzzRun.corpus(seeds);
  }

  /**
   * The streaming decoder over a stored event's bytes ({@link ChangeCodec#decode(SessionEvent)})
   * and the tree entry point give what the tree decoder gave before there was a streaming one
   * ({@link TreeChangeOracle}): the same change, or the same error code and message. The bytes are
   * the input's own (member order, white space, escapes and repeated names as written).
   */
  static Verdict storedChange(byte[] input) {
    String text = FuzzRun.text(input);
    JsonNode tree;
    try {
      tree = Json.parse(text);
    } catch (IllegalArgumentException e) {
      return Verdict.UNPARSABLE;
    }
    byte[] line = ("{\"seq\":0,\"type\":\"schedule/change\",\"time\":0,\"data\":" + text + "}")
        .getBytes(StandardCharsets.UTF_8);
    SessionEvent event;
    try {
      event = EventCodec.readEvent(line, 0, line.length);
    } catch (EventCodec.Unreadable e) {
      // one level deeper than the payload alone: a payload at the nesting limit no longer loads
      return Verdict.UNPARSABLE;
    }
    String expected = outcome(() -> TreeChangeOracle.decode(tree));
    assertThat(outcome(() -> ChangeCodec.decode(event))).as("stored bytes").isEqualTo(expected);
    assertThat(outcome(() -> ChangeCodec.decode(tree))).as("tree").isEqualTo(expected);
    assertThat(outcome(() -> ChangeCodec.decode(event.data()))).as("the event's tree").isEqualTo(expected);
    return expected.startsWith("value ") ? Verdict.VALID : Verdict.DOMAIN_ERROR;
  }

  private static String outcome(Supplier<ScheduleChange> decode) {
    try {
      return "value " + decode.get();
    } catch (CorruptScheduleLogException e) {
      return "error " + e.code() + " " + e.getMessage();
    }
  }

  /** The events of a stored log, or empty when the text is not one (refused before the fold). */
  static Optional<List<SessionEvent>> events(byte[] input) {
    try {
      JsonNode array = Json.parse(FuzzRun.text(input));
      if (!array.isArray()) {
        return Optional.empty();
      }
      List<SessionEvent> events = new ArrayList<>();
      for (JsonNode e : array) {
        events.add(EventCodec.fromJson(e));
      }
      return Optional.of(events);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static Verdict fold(byte[] input) {
    Optional<List<SessionEvent>> log = events(input);
    if (log.isEmpty()) {
      return Verdict.UNPARSABLE;
    }
    List<SessionEvent> events = log.get();
    ScheduleState state;
    try {
      state = ScheduleFold.fold(events, 0);
    } catch (CorruptScheduleLogException e) {
      assertThatThrownBy(() -> absorbOneByOne(events)).isInstanceOf(CorruptScheduleLogException.class);
      return Verdict.DOMAIN_ERROR;
    }
    assertThat(absorbOneByOne(events).state()).isEqualTo(state);
    assertThat(ScheduleFold.start(0).absorbLog(events).state()).isEqualTo(state);
    return Verdict.VALID;
  }

  private static ScheduleFold absorbOneByOne(List<SessionEvent> events) {
    ScheduleFold fold = ScheduleFold.start(0);
    for (SessionEvent e : events) {
      fold.absorb(List.of(e));
    }
    return fold;
  }

  /**
   * The implicit zone over {@code {"events":[{type, data}…], "header":{"timeZone"?}}}, the shape of
   * the conformance cases: events as a log holds them, whatever their payloads.
   */
  static Verdict implicitZone(byte[] input) {
    JsonNode args;
    try {
      args = Json.parse(FuzzRun.text(input));
    } catch (IllegalArgumentException e) {
      return Verdict.UNPARSABLE;
    }
    List<SessionEvent> events = new ArrayList<>();
    for (JsonNode e : args.path("events")) {
      if (!e.path("type").isTextual() || e.path("type").asText().isBlank()) {
        return Verdict.UNPARSABLE;
      }
      JsonNode data = e.path("data").isMissingNode() ? Json.mapper().nullNode() : e.get("data");
      events.add(SessionEvent.of(events.size(), e.get("type").asText(), 0, data));
    }
    JsonNode zone = args.path("header").path("timeZone");
    ZoneAuthority authority;
    try {
      authority = ImplicitZone.derive(events, zone.isTextual() ? Optional.of(zone.asText()) : Optional.empty());
    } catch (ClientZoneException e) {
      return Verdict.DOMAIN_ERROR;
    }
    return authority instanceof ZoneAuthority.Confirmed ? Verdict.VALID : Verdict.DOMAIN_ERROR;
  }

  static Verdict create(byte[] input) {
    JsonNode json;
    try {
      json = Json.parse(FuzzRun.text(input));
    } catch (IllegalArgumentException e) {
      return Verdict.UNPARSABLE;
    }
    ZoneAuthority authority = input.length % 2 == 0
        ? ImplicitZone.derive(List.of(), Optional.of("Europe/Berlin"))
        : ImplicitZone.derive(List.of(), Optional.empty());
    ScheduleResult<ScheduleRecord> result = CreateRequest.create(json, NOW, List.of("schedule-1"), authority);
    if (result instanceof ScheduleResult.Ok<ScheduleRecord> ok) {
      ScheduleChange change = new ScheduleChange.Create(ok.value());
      assertThat(ChangeCodec.decode(Json.parse(ChangeCodec.encodeText(change)))).isEqualTo(change);
      return Verdict.VALID;
    }
    return Verdict.DOMAIN_ERROR;
  }

  @Test
  void changeCodec() {
    FuzzRun.assertClean(FuzzRun.run("ChangeCodec", 21, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, changes(),
        ScheduleFuzzTest::change));
  }

  @Test
  void storedChangeCodec() {
    FuzzRun.assertClean(FuzzRun.run("StoredChangeCodec", 25, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        storedChanges(), ScheduleFuzzTest::storedChange));
  }

  @Test
  void fold() {
    FuzzRun.assertClean(FuzzRun.run("ScheduleFold", 22, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, logs(),
        ScheduleFuzzTest::fold));
  }

  @Test
  void implicitZone() {
    FuzzRun.assertClean(FuzzRun.run("ImplicitZone", 23, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, zoneArgs(),
        ScheduleFuzzTest::implicitZone));
  }

  @Test
  void createArguments() {
    FuzzRun.assertClean(FuzzRun.run("CreateRequest", 24, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, createInputs(),
        ScheduleFuzzTest::create));
  }

  @Test
  @Tag("slow")
  void changeCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("ChangeCodec", 121, FuzzRun.LONG, FuzzRun.LONG_BUDGET, changes(),
        ScheduleFuzzTest::change));
  }

  @Test
  @Tag("slow")
  void storedChangeCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("StoredChangeCodec", 125, FuzzRun.LONG, FuzzRun.LONG_BUDGET,
        storedChanges(), ScheduleFuzzTest::storedChange));
  }

  @Test
  @Tag("slow")
  void foldLong() {
    FuzzRun.assertClean(FuzzRun.run("ScheduleFold", 122, FuzzRun.LONG, FuzzRun.LONG_BUDGET, logs(),
        ScheduleFuzzTest::fold));
  }

  @Test
  @Tag("slow")
  void createArgumentsLong() {
    FuzzRun.assertClean(FuzzRun.run("CreateRequest", 124, FuzzRun.LONG, FuzzRun.LONG_BUDGET, createInputs(),
        ScheduleFuzzTest::create));
  }
}
