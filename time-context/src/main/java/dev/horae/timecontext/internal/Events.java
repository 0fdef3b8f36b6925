package dev.horae.timecontext.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.TimeContextAuthority;
import java.util.OptionalLong;

/**
 * Small readers of raw log events shared by the reading builder, the authority and the invariant
 * rules.
 */
public final class Events {

  /** The plugin name in a reading's source. */
  public static final String PLUGIN = TimeContextAuthority.PLUGIN;

  private Events() {}

  /**
   * Whether the event is a time-context reading as the gate, the step &gt; 1 baseline and the
   * invariant identify it (spec §4.1): a {@code user/message} whose source has
   * {@code kind: "plugin"} and {@code plugin: "time-context"}. The rest of the shape is not looked
   * at.
   *
   * @param event a raw event
   * @return true for a plugin-attributed reading
   */
  public static boolean isAttributedReading(SessionEvent event) {
    return event.type().equals(EventTypes.USER_MESSAGE) && isAttributedSource(event.data().path("source"));
  }

  /**
   * Whether a message source names the time-context plugin.
   *
   * @param source a message source (missing node allowed)
   * @return true when {@code kind} is {@code plugin} and {@code plugin} is {@code time-context}
   */
  public static boolean isAttributedSource(JsonNode source) {
    return textEquals(source.path("kind"), "plugin") && textEquals(source.path("plugin"), PLUGIN);
  }

  /**
   * Whether the event counts as a model-visible message for the step-1 baseline (spec §6).
   *
   * @param type an event type
   * @return true for {@code user/message}, {@code assistant/message} and {@code tool/result}
   */
  public static boolean isModelVisible(String type) {
    return type.equals(EventTypes.USER_MESSAGE)
        || type.equals(EventTypes.ASSISTANT_MESSAGE)
        || type.equals(EventTypes.TOOL_RESULT);
  }

  /**
   * The integral value of a payload member such as {@code turn} or {@code step}.
   *
   * @param data the payload
   * @param member the member name
   * @return the value when it is an integral JSON number within {@code long}
   */
  public static OptionalLong integer(JsonNode data, String member) {
    JsonNode v = data.path(member);
    if (!v.isNumber()) {
      return OptionalLong.empty();
    }
    if (v.isIntegralNumber()) {
      return v.canConvertToLong() ? OptionalLong.of(v.longValue()) : OptionalLong.empty();
    }
    double d = v.doubleValue();
    if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) > Long.MAX_VALUE) {
      return OptionalLong.empty();
    }
    return OptionalLong.of((long) d);
  }

  /**
   * Whether the event is a {@code turn/start} of the given turn.
   *
   * @param event a raw event
   * @param turn a turn number
   * @return true when it opens that turn
   */
  public static boolean isTurnStartOf(SessionEvent event, long turn) {
    if (!event.type().equals(EventTypes.TURN_START)) {
      return false;
    }
    OptionalLong t = integer(event.data(), "turn");
    return t.isPresent() && t.getAsLong() == turn;
  }

  /**
   * Whether a JSON value is the given string.
   *
   * @param node any node
   * @param expected the string
   * @return true when the node is a string equal to {@code expected}
   */
  public static boolean textEquals(JsonNode node, String expected) {
    return node.isTextual() && node.textValue().equals(expected);
  }

  /**
   * Milliseconds from {@code baseline} to {@code now}, clamped to zero when the clock went
   * backwards and saturated instead of overflowing.
   *
   * @param now the sampled time
   * @param baseline the earlier event time
   * @return {@code max(0, now − baseline)}
   */
  public static long elapsed(long now, long baseline) {
    if (now <= baseline) {
      return 0;
    }
    long diff = now - baseline;
    return diff < 0 ? Long.MAX_VALUE : diff;
  }
}
