package dev.horae.spi.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JSON form of a {@link SessionEvent}, shared by every store and by offline tools:
 * {@code {"seq","type","time","data","surfaceOp"?,"sourceEventSeqs"?}} where {@code surfaceOp} is
 * {@code {"op":"append"}} or {@code {"op":"replace","start":s,"end":e}}.
 */
public final class EventCodec {

  // a log holds a handful of types a million times: one string per type instead of one per event
  // (about 56 bytes each); bounded, so a log of ever new types cannot grow it without end
  private static final int CANONICAL_TYPES = 1024;
  private static final Map<String, String> TYPES = new ConcurrentHashMap<>();

  private EventCodec() {}

  private static String canonical(String type) {
    String known = TYPES.get(type);
    if (known != null) {
      return known;
    }
    if (TYPES.size() < CANONICAL_TYPES) {
      known = TYPES.putIfAbsent(type, type);
    }
    return known == null ? type : known;
  }

  /**
   * Encodes an event.
   *
   * @param event the event
   * @return a new JSON object
   */
  public static ObjectNode toJson(SessionEvent event) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("seq", event.seq());
    o.put("type", event.type());
    o.put("time", event.time());
    o.set("data", event.data());
    event.surfaceOp().ifPresent(op -> {
      ObjectNode s = o.putObject("surfaceOp");
      if (op instanceof SurfaceOp.Replace r) {
        s.put("op", "replace");
        s.put("start", r.start());
        s.put("end", r.end());
      } else {
        s.put("op", "append");
      }
    });
    if (!event.sourceEventSeqs().isEmpty()) {
      ArrayNode a = o.putArray("sourceEventSeqs");
      event.sourceEventSeqs().forEach(a::add);
    }
    return o;
  }

  /**
   * Decodes an event written by {@link #toJson}.
   *
   * @param json the event object
   * @return the event, with {@code data} deep-copied
   * @throws IllegalArgumentException when the shape is wrong
   */
  public static SessionEvent fromJson(JsonNode json) {
    return decode(json, true);
  }

  /**
   * Decodes an event from a tree the caller has just parsed and hands over: {@code data} is the
   * tree's own node, not a copy. A store's decoder reads each line into a fresh tree that no one
   * else holds, so copying it again would only double the cost of a replay.
   *
   * @param json the event object; the caller must not change or share it afterwards
   * @return the event
   * @throws IllegalArgumentException when the shape is wrong
   */
  public static SessionEvent fromParsed(JsonNode json) {
    return decode(json, false);
  }

  private static SessionEvent decode(JsonNode json, boolean copy) {
    if (!json.isObject()) {
      throw new IllegalArgumentException("event must be a JSON object");
    }
    JsonNode seq = json.get("seq");
    JsonNode type = json.get("type");
    JsonNode time = json.get("time");
    JsonNode data = json.get("data");
    if (seq == null || !seq.canConvertToLong() || !seq.isIntegralNumber()) {
      throw new IllegalArgumentException("event member \"seq\" must be an integer");
    }
    if (type == null || !type.isTextual()) {
      throw new IllegalArgumentException("event member \"type\" must be a string");
    }
    if (time == null || !time.isIntegralNumber() || !time.canConvertToLong()) {
      throw new IllegalArgumentException("event member \"time\" must be an integer");
    }
    if (data == null) {
      throw new IllegalArgumentException("event member \"data\" is missing");
    }
    Optional<SurfaceOp> surface = Optional.empty();
    JsonNode s = json.get("surfaceOp");
    if (s != null && !s.isNull()) {
      String op = s.path("op").asText("");
      if (op.equals("append")) {
        surface = Optional.of(SurfaceOp.APPEND);
      } else if (op.equals("replace")) {
        surface = Optional.of(new SurfaceOp.Replace(s.path("start").asLong(), s.path("end").asLong()));
      } else {
        throw new IllegalArgumentException("event member \"surfaceOp\" has unknown op \"" + op + "\"");
      }
    }
    List<Long> sources = new ArrayList<>();
    JsonNode src = json.get("sourceEventSeqs");
    if (src != null && src.isArray()) {
      src.forEach(n -> sources.add(n.asLong()));
    }
    return new SessionEvent(seq.longValue(), canonical(type.asText()), time.longValue(), copy ? data.deepCopy() : data, surface, sources);
  }
}
