package dev.horae.conformance.internal.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.conformance.Outcome;
import dev.horae.conformance.SuiteAdapter;
import dev.horae.conformance.UnusableArgsException;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.ClientZoneException;
import dev.horae.timecontext.ClientZoneContext;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.ReadingInvariant;
import dev.horae.timecontext.TimeContextConfig;
import dev.horae.timecontext.TimeFormats;
import dev.horae.timecontext.TimeReadings;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** The {@code time-context} suite on {@code dev.horae.timecontext}. */
public final class TimeContextSuite implements SuiteAdapter {

  /** Creates the adapter. */
  public TimeContextSuite() {}

  @Override
  public String suite() {
    return "time-context";
  }

  @Override
  public Set<String> functions() {
    return Set.of("timecontext.duration", "timecontext.timestamp", "timecontext.validateConfig",
        "timecontext.clientZones", "timecontext.reading", "timecontext.invariant");
  }

  @Override
  public Outcome call(String fn, JsonNode json) {
    Args args = Args.of(json);
    try {
      return switch (fn) {
        case "timecontext.duration" ->
          Outcome.text(TimeFormats.duration(args.integer("ms")));
        case "timecontext.timestamp" ->
          Outcome.text(TimeFormats.timestamp(
              Instant.ofEpochMilli(args.millis("instant")), args.text("zone")));
        case "timecontext.validateConfig" ->
          Outcome.value(config(args).toJson());
        case "timecontext.clientZones" ->
          Outcome.value(ClientZoneContext.derive(args.list("messages")).toJson());
        case "timecontext.reading" ->
          TimeReadings.reading(config(args), args.events("events"), args.integer("turn"),
                  args.integer("step"), args.millis("now"), args.optList("messages"))
              .map(Outcome::text)
              .orElseGet(Outcome::none);
        case "timecontext.invariant" ->
          invariant(args);
        default ->
          throw new UnusableArgsException("no time-context function " + fn);
      };
    } catch (InvalidConfigException | ClientZoneException e) {
      return message(String.valueOf(e.getMessage()));
    }
  }

  private static TimeContextConfig.Resolved config(Args args) {
    return TimeContextConfig.validate(
        args.optNode("config").orElseGet(JsonNodeFactory.instance::objectNode),
        args.optText("processZone"));
  }

  private static Outcome invariant(Args args) {
    List<SessionEvent> prefix = args.events("events");
    JsonNode c = args.object("candidate");
    if (!c.path("type").isTextual() || !c.has("data")) {
      throw new UnusableArgsException("args.candidate must be an event {type, time, data}");
    }
    long time = c.hasNonNull("time") ? Args.millis(c.get("time"), "args.candidate.time") : 0;
    SessionEvent candidate = SessionEvent.of(prefix.size(), c.get("type").textValue(), time, c.get("data"));
    return ReadingInvariant.check(prefix, candidate)
        .map(v -> message(v.message()))
        .orElseGet(() -> Outcome.text("ok"));
  }

  private static Outcome message(String message) {
    ObjectNode error = JsonNodeFactory.instance.objectNode();
    error.put("message", message);
    return Outcome.error(error);
  }
}
