package dev.horae.conformance.internal.suite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.conformance.UnusableArgsException;
import dev.horae.spi.session.SessionEvent;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Typed access to a case's {@code args}: every getter names the argument in its {@link
 * UnusableArgsException}, so a bad case reports what it lacks. Optional arguments may be absent
 * or {@code null}.
 */
final class Args {

  private final JsonNode args;

  private Args(JsonNode args) {
    this.args = args;
  }

  static Args of(JsonNode args) {
    return new Args(args);
  }

  JsonNode node(String name) {
    JsonNode v = args.get(name);
    if (v == null || v.isNull()) {
      throw new UnusableArgsException("args." + name + " is required");
    }
    return v;
  }

  Optional<JsonNode> optNode(String name) {
    JsonNode v = args.get(name);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }

  /** A required member whose value may be any JSON, {@code null} included. */
  JsonNode any(String name) {
    JsonNode v = args.get(name);
    if (v == null) {
      throw new UnusableArgsException("args." + name + " is required");
    }
    return v;
  }

  String text(String name) {
    JsonNode v = node(name);
    if (!v.isTextual()) {
      throw new UnusableArgsException("args." + name + " must be a string");
    }
    return v.textValue();
  }

  Optional<String> optText(String name) {
    Optional<JsonNode> v = optNode(name);
    if (v.isPresent() && !v.get().isTextual()) {
      throw new UnusableArgsException("args." + name + " must be a string");
    }
    return v.map(JsonNode::textValue);
  }

  JsonNode object(String name) {
    JsonNode v = node(name);
    if (!v.isObject()) {
      throw new UnusableArgsException("args." + name + " must be an object");
    }
    return v;
  }

  JsonNode array(String name) {
    JsonNode v = node(name);
    if (!v.isArray()) {
      throw new UnusableArgsException("args." + name + " must be an array");
    }
    return v;
  }

  List<JsonNode> list(String name) {
    List<JsonNode> out = new ArrayList<>();
    array(name).forEach(out::add);
    return out;
  }

  List<JsonNode> optList(String name) {
    return optNode(name).isPresent() ? list(name) : List.of();
  }

  List<String> strings(String name) {
    return strings(array(name), "args." + name);
  }

  List<String> optStrings(String name) {
    return optNode(name).isPresent() ? strings(name) : List.of();
  }

  static List<String> strings(JsonNode array, String what) {
    if (!array.isArray()) {
      throw new UnusableArgsException(what + " must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      if (!n.isTextual()) {
        throw new UnusableArgsException(what + " must be an array of strings");
      }
      out.add(n.textValue());
    }
    return out;
  }

  long integer(String name) {
    return integer(node(name), "args." + name);
  }

  OptionalLong optInteger(String name) {
    return optNode(name).isPresent() ? OptionalLong.of(integer(name)) : OptionalLong.empty();
  }

  static long integer(JsonNode v, String what) {
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new UnusableArgsException(what + " must be an integer");
    }
    return v.longValue();
  }

  boolean optBoolean(String name, boolean fallback) {
    Optional<JsonNode> v = optNode(name);
    if (v.isPresent() && !v.get().isBoolean()) {
      throw new UnusableArgsException("args." + name + " must be a boolean");
    }
    return v.map(JsonNode::booleanValue).orElse(fallback);
  }

  /** An RFC 3339 time argument as epoch milliseconds. */
  long millis(String name) {
    return millis(node(name), "args." + name);
  }

  static long millis(JsonNode v, String what) {
    if (!v.isTextual()) {
      throw new UnusableArgsException(what + " must be an RFC 3339 string");
    }
    try {
      return OffsetDateTime.parse(v.textValue()).toInstant().toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new UnusableArgsException(what + " is not an RFC 3339 time: " + v.textValue(), e);
    }
  }

  /**
   * Events {@code {seq?, type, time?, data}}; a missing {@code seq} is the index and a missing
   * {@code time} is 0.
   */
  List<SessionEvent> events(String name) {
    List<SessionEvent> out = new ArrayList<>();
    JsonNode array = array(name);
    for (int i = 0; i < array.size(); i++) {
      JsonNode e = array.get(i);
      String what = "args." + name + "[" + i + "]";
      if (!e.isObject() || !e.path("type").isTextual()) {
        throw new UnusableArgsException(what + " must be an event object with a type");
      }
      long seq = e.hasNonNull("seq") ? integer(e.get("seq"), what + ".seq") : i;
      long time = e.hasNonNull("time") ? millis(e.get("time"), what + ".time") : 0;
      // a null payload is a payload: the decoders that read it own the error for it
      JsonNode data = e.get("data");
      if (data == null) {
        throw new UnusableArgsException(what + ".data is required");
      }
      try {
        out.add(SessionEvent.of(seq, e.get("type").textValue(), time, data));
      } catch (IllegalArgumentException notAnEvent) {
        throw new UnusableArgsException(what + ": " + notAnEvent.getMessage(), notAnEvent);
      }
    }
    return out;
  }
}
