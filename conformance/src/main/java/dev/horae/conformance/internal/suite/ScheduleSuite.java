package dev.horae.conformance.internal.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.SuiteAdapter;
import dev.horae.conformance.UnusableArgsException;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.CreateRequest;
import dev.horae.schedule.EcmaText;
import dev.horae.schedule.ImplicitZone;
import dev.horae.schedule.ReminderFraming;
import dev.horae.schedule.ReminderPresentation;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleIds;
import dev.horae.schedule.ScheduleJson;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleResult;
import dev.horae.schedule.ScheduleView;
import dev.horae.schedule.ZoneAuthority;
import dev.horae.spi.session.Json;
import java.util.Optional;
import java.util.Set;

/** The {@code schedule} suite on {@code dev.horae.schedule} (schedule-core). */
public final class ScheduleSuite implements SuiteAdapter {

  /** Creates the adapter. */
  public ScheduleSuite() {}

  @Override
  public String suite() {
    return "schedule";
  }

  @Override
  public Set<String> functions() {
    return Set.of("schedule.decodeChange", "schedule.fold", "schedule.allocateId", "schedule.view",
        "schedule.framing", "schedule.create", "schedule.implicitZone", "schedule.presentation",
        "schedule.trim");
  }

  @Override
  public Outcome call(String fn, JsonNode json) {
    Args args = Args.of(json);
    try {
      return switch (fn) {
        case "schedule.decodeChange" ->
          Outcome.value(Json.parse(ChangeCodec.encodeText(ChangeCodec.decode(args.any("payload")))));
        case "schedule.fold" ->
          Outcome.value(Json.parse(
              ScheduleFold.fold(args.events("events"), seedLength(args)).toJson()));
        case "schedule.allocateId" ->
          Outcome.text(ScheduleIds.allocate(args.strings("seenIds")));
        case "schedule.view" ->
          Outcome.value(Json.parse(ScheduleView.of(record(args), args.millis("now")).toJson()));
        case "schedule.framing" ->
          Outcome.text(ReminderFraming.text(record(args)));
        case "schedule.create" ->
          create(args);
        case "schedule.implicitZone" ->
          implicitZone(args);
        case "schedule.presentation" ->
          ReminderPresentation.project(args.events("events"), args.any("dispatchSeq"),
                  seedLength(args))
              .map(p -> Outcome.value(Json.parse(p.toJson())))
              .orElseGet(Outcome::none);
        case "schedule.trim" ->
          Outcome.text(EcmaText.trim(args.text("text")));
        default ->
          throw new UnusableArgsException("no schedule function " + fn);
      };
    } catch (CorruptScheduleLogException e) {
      ObjectNode error = JsonNodeFactory.instance.objectNode();
      error.put("code", e.code().wire());
      error.put("message", e.reason());
      return Outcome.error(error);
    }
  }

  private static Outcome create(Args args) {
    Optional<JsonNode> za = args.optNode("zoneAuthority");
    ZoneAuthority authority = ZoneAuthority.none();
    if (za.isPresent()) {
      JsonNode session = za.get().path("sessionTimeZone");
      if (!session.isMissingNode() && !session.isNull() && !session.isTextual()) {
        throw new UnusableArgsException("args.zoneAuthority.sessionTimeZone must be a string or null");
      }
      JsonNode clients = za.get().path("clientTimeZones");
      authority = ZoneAuthority.reduced(
          session.isTextual() ? Optional.of(session.textValue()) : Optional.empty(),
          clients.isMissingNode() || clients.isNull()
              ? java.util.List.of()
              : Args.strings(clients, "args.zoneAuthority.clientTimeZones"));
    }
    // any input value reaches the shape checks, which answer a non-object with invalid_selector
    ScheduleResult<ScheduleRecord> r = CreateRequest.create(
        args.any("input"), args.millis("now"), args.optStrings("seenIds"), authority);
    if (r instanceof ScheduleResult.Ok<ScheduleRecord> ok) {
      return Outcome.value(Json.parse(ScheduleJson.record(ok.value())));
    }
    return error(((ScheduleResult.Err<ScheduleRecord>) r).error().toJson());
  }

  // the fold's input check owns every present seedLength, so a fraction, a string or NaN fails
  // there with the library's message; absent or null means 0
  private static JsonNode seedLength(Args args) {
    return args.optNode("seedLength").orElseGet(() -> JsonNodeFactory.instance.numberNode(0));
  }

  private static Outcome implicitZone(Args args) {
    JsonNode header = args.optNode("header").orElseGet(JsonNodeFactory.instance::objectNode);
    JsonNode zone = header.path("timeZone");
    ZoneAuthority a = ImplicitZone.derive(args.events("events"),
        zone.isTextual() ? Optional.of(zone.textValue()) : Optional.empty());
    if (a instanceof ZoneAuthority.Confirmed c) {
      ObjectNode value = JsonNodeFactory.instance.objectNode();
      value.put("timeZone", c.zone());
      return Outcome.value(value);
    }
    return error(((ZoneAuthority.Unconfirmed) a).error().toJson());
  }

  // a record argument is the stored record JSON; the library's own decoder reads it, through the
  // create change that carries records in the log
  private static ScheduleRecord record(Args args) {
    ObjectNode change = JsonNodeFactory.instance.objectNode();
    change.put("version", 1);
    change.put("operation", "create");
    change.set("schedule", args.object("record"));
    ScheduleChange decoded;
    try {
      decoded = ChangeCodec.decode(change);
    } catch (CorruptScheduleLogException e) {
      throw new UnusableArgsException("args.record is not a stored record: " + e.reason(), e);
    }
    if (!(decoded instanceof ScheduleChange.Create create)) {
      throw new UnusableArgsException("args.record is not a stored record");
    }
    return create.record();
  }

  private static Outcome error(String json) {
    return Outcome.error((ObjectNode) Json.parse(json));
  }
}
