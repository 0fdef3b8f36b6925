package dev.horae.spi.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The compact event (its payload held as text) and the streaming reader of stored events. */
class CompactEventTest {

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static List<SessionEvent> read(String json) {
    byte[] bytes = utf8(json);
    return EventCodec.readArray(bytes, 0, bytes.length);
  }

  private static EventCodec.Unreadable unreadable(byte[] bytes) {
    try {
      EventCodec.readArray(bytes, 0, bytes.length);
    } catch (EventCodec.Unreadable e) {
      return e;
    }
    throw new AssertionError("read: " + new String(bytes, StandardCharsets.UTF_8));
  }

  private static EventCodec.Unreadable unreadable(String json) {
    return unreadable(utf8(json));
  }

  @Test
  void theLogCannotBeChangedThroughAPayload() {
    ObjectNode given = Json.mapper().createObjectNode().put("n", 1);
    SessionEvent event = SessionEvent.of(0, "t", 1, given);
    given.put("n", 2);
    ((ObjectNode) event.data()).put("n", 3);
    assertThat(Json.write(event.data())).isEqualTo("{\"n\":1}");
    assertThat(event.data()).isNotSameAs(event.data());
  }

  @Test
  void theDataParserReadsThePayloadAsStoredAndCannotChangeIt() throws Exception {
    String payload = "{ \"b\":[1, 2.50], \"a\":\"\\u00e9\" }";
    SessionEvent event = read("[{\"seq\":0,\"type\":\"t\",\"time\":0,\"data\":" + payload + "}]").get(0);
    try (JsonParser p = event.dataParser()) {
      // the stored text's own member order, token by token
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextFieldName()).isEqualTo("b");
      p.skipChildren();
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
      p.skipChildren();
      assertThat(p.nextFieldName()).isEqualTo("a");
      assertThat(p.nextTextValue()).isEqualTo("\u00e9");
      assertThat(p.nextToken()).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).isNull();
    }
    try (JsonParser p = event.dataParser()) {
      // a tree read through it is the event's payload; changing that tree leaves the event as it was
      JsonNode tree = p.readValueAsTree();
      assertThat(tree).isEqualTo(event.data());
      ((ObjectNode) tree).put("a", "changed");
    }
    assertThat(event.data().get("a").textValue()).isEqualTo("\u00e9");
    // each call is a fresh parser at the start
    try (JsonParser p = event.dataParser()) {
      assertThat(p.currentToken()).isNull();
    }
  }

  @Test
  void eachEventsOwnParserReadsItsPayloadsTokensAsItsTreeHoldsThem() throws Exception {
    // numbers and strings side by side: each payload ends where its own parser's input ends
    List<SessionEvent> events = read("[{\"seq\":0,\"type\":\"t\",\"time\":0,\"data\":12},"
        + "{\"seq\":1,\"type\":\"t\",\"time\":0,\"data\":34},"
        + "{\"seq\":2,\"type\":\"t\",\"time\":0,\"data\":\"x\"},"
        + "{\"seq\":3,\"type\":\"t\",\"time\":0,\"data\":{ \"a\" : [1, 2.50, \"\\u00e9\"] }},"
        + "{\"seq\":4,\"type\":\"t\",\"time\":0,\"data\":null},"
        + "{\"seq\":5,\"type\":\"t\",\"time\":0,\"data\":-0.5e1}]");
    StringBuilder big = new StringBuilder("{\"long\":\"");
    for (int i = 0; i < 20_000; i++) {
      big.append((char) ('a' + i % 26));
    }
    SessionEvent large = SessionEvent.of(6, "t", 0, Json.parse(big.append("\"}").toString()));
    List<SessionEvent> all = new java.util.ArrayList<>(events);
    // longer than a parser's input buffer
    all.add(large);
    all.add(events.get(0));
    for (SessionEvent event : all) {
      // the payload's own parser reads that payload's value, number kinds included, and then ends
      try (JsonParser own = event.dataParser()) {
        assertThat(tokens(own)).isNotEmpty();
        assertThat(own.nextToken()).isNull();
      }
      try (JsonParser own = event.dataParser()) {
        assertThat(Json.mapper().<JsonNode>readTree(own)).isEqualTo(event.data());
      }
    }
  }

  // the tokens of one value and their texts, read to the value's last token
  private static List<String> tokens(JsonParser p) throws java.io.IOException {
    List<String> out = new java.util.ArrayList<>();
    int depth = 0;
    do {
      JsonToken t = p.nextToken();
      out.add(t + " " + p.getText() + (t != null && t.isNumeric() ? " " + p.getNumberType() + " " + p.getDecimalValue() : ""));
      depth += t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY ? 1
          : t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY ? -1 : 0;
    } while (depth > 0);
    return out;
  }

  @Test
  void eventsOfOneTypeShareOneTypeStringHoweverTheyAreRead() {
    String type = new String("host/one-type".toCharArray());
    SessionEvent a = read("[{\"seq\":0,\"type\":\"host/one-type\",\"time\":0,\"data\":0}]").get(0);
    SessionEvent other = read("[{\"seq\":0,\"type\":\"host/other\",\"time\":0,\"data\":0}]").get(0);
    SessionEvent b = read("[{\"seq\":0,\"type\":\"host/one-type\",\"time\":0,\"data\":0}]").get(0);
    SessionEvent c = EventCodec.fromJson(EventCodec.toJson(SessionEvent.of(0, type, 0, Json.parse("0"))));
    assertThat(b.type()).isSameAs(a.type()).isSameAs(c.type()).isEqualTo(type);
    assertThat(other.type()).isEqualTo("host/other");
    // a type as long as the last one but different is not taken for it
    SessionEvent d = read("[{\"seq\":0,\"type\":\"host/one-typo\",\"time\":0,\"data\":0}]").get(0);
    assertThat(d.type()).isEqualTo("host/one-typo");
  }

  @Test
  void equalityIsOnTheJsonValueNotOnItsText() {
    SessionEvent a = read("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{\"a\":1,\"b\":[true]}}]").get(0);
    SessionEvent b = read("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\": { \"b\" : [ true ] , \"a\" : 1 } }]").get(0);
    SessionEvent built = SessionEvent.of(0, "t", 1, Json.parse("{\"a\":1,\"b\":[true]}"));
    assertThat(a).isEqualTo(b).isEqualTo(built).hasSameHashCodeAs(b).hasSameHashCodeAs(built);
    assertThat(a).isNotEqualTo(SessionEvent.of(0, "t", 1, Json.parse("{\"a\":2,\"b\":[true]}")));
    assertThat(a).isNotEqualTo(SessionEvent.of(0, "t", 2, Json.parse("{\"a\":1,\"b\":[true]}")));
    assertThat(a.toString()).contains("data={\"a\":1,\"b\":[true]}");
  }

  @Test
  void aPayloadTheParserCouldNotReadBackIsRefusedWhenTheEventIsBuilt() {
    JsonNode deep = Json.mapper().createArrayNode();
    for (int i = 0; i < 1000; i++) {
      deep = Json.mapper().createArrayNode().add(deep);
    }
    JsonNode tooDeep = deep;
    assertThatThrownBy(() -> SessionEvent.of(0, "t", 1, tooDeep))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deeper than 1000");
  }

  @Test
  void aStoredPayloadIsKeptAsItsBytesAndTheEnvelopeIsRead() {
    List<SessionEvent> events = read("[{\"x\":[1],\"seq\":4,\"type\":\"user/message\",\"time\":9,\"data\": \"h\u00e9\" ,"
        + "\"surfaceOp\":{\"op\":\"replace\",\"start\":1,\"end\":2},\"sourceEventSeqs\":[1,2]},"
        + "{\"seq\":5,\"type\":\"t\",\"time\":10,\"data\":1.50,\"surfaceOp\":{\"op\":\"append\"}}]");
    SessionEvent first = events.get(0);
    assertThat(first.seq()).isEqualTo(4);
    assertThat(first.type()).isEqualTo("user/message");
    assertThat(first.time()).isEqualTo(9);
    assertThat(new String(first.dataArray(), first.dataOffset(), first.dataLength(), StandardCharsets.UTF_8)).isEqualTo("\"h\u00e9\"");
    assertThat(first.surfaceOp()).contains(new SurfaceOp.Replace(1, 2));
    assertThat(first.sourceEventSeqs()).containsExactly(1L, 2L);
    assertThat(events.get(1).data().toString()).isEqualTo("1.50");
    assertThat(events.get(1).surfaceOp()).contains(SurfaceOp.APPEND);
    assertThat(EventCodec.writeArray(events)).isEqualTo(utf8("[{\"seq\":4,\"type\":\"user/message\",\"time\":9,"
        + "\"data\":\"h\u00e9\",\"surfaceOp\":{\"op\":\"replace\",\"start\":1,\"end\":2},\"sourceEventSeqs\":[1,2]},"
        + "{\"seq\":5,\"type\":\"t\",\"time\":10,\"data\":1.50,\"surfaceOp\":{\"op\":\"append\"}}]"));
  }

  @Test
  void theWriterWritesWhatTheTreeCodecWrites() {
    SessionEvent e = new SessionEvent(3, "a\"b\ud800", 7, Json.parse("{\"k\":[1,\"\\u0000\",{}],\"d\":2.50}"),
        Optional.of(SurfaceOp.APPEND), List.of(1L));
    assertThat(EventCodec.write(e)).isEqualTo(Json.write(EventCodec.toJson(e)));
    byte[] line = EventCodec.writeArray(List.of(e, e));
    assertThat(EventCodec.readArray(line, 0, line.length)).containsExactly(e, e);
  }

  @Test
  void wrongMembersAreNamedInTheTreeCodecsOrder() {
    assertThat(unreadable("[{\"type\":\"t\",\"time\":1,\"data\":{}}]").getMessage())
        .isEqualTo("event member \"seq\" must be an integer");
    assertThat(unreadable("[{\"seq\":1.0,\"type\":\"t\",\"time\":1,\"data\":{}}]").getMessage())
        .isEqualTo("event member \"seq\" must be an integer");
    assertThat(unreadable("[{\"seq\":99999999999999999999,\"type\":\"t\",\"time\":1,\"data\":{}}]").getMessage())
        .isEqualTo("event member \"seq\" must be an integer");
    assertThat(unreadable("[{\"seq\":0,\"type\":5,\"time\":1,\"data\":{}}]").getMessage())
        .isEqualTo("event member \"type\" must be a string");
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":\"1\",\"data\":{}}]").getMessage())
        .isEqualTo("event member \"time\" must be an integer");
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1}]").getMessage())
        .isEqualTo("event member \"data\" is missing");
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":0,\"surfaceOp\":{\"op\":\"x\"}}]").getMessage())
        .isEqualTo("event member \"surfaceOp\" has unknown op \"x\"");
    assertThat(unreadable("[5]").getMessage()).isEqualTo("event must be a JSON object");
    // a container where a scalar belongs is stepped over whole: the event, not the text, is wrong
    for (String wrong : new String[] {"\"seq\":{\"a\":[1]}", "\"type\":[\"t\"]", "\"time\":{}"}) {
      String text = "[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":0," + wrong + "},{\"seq\":1,\"type\":\"t\",\"time\":1,\"data\":0}]";
      EventCodec.Unreadable e = unreadable(text);
      assertThat(e.syntax()).as(text).isFalse();
      assertThat(e.getMessage()).as(text).startsWith("event member ").doesNotContain("content after");
      assertThat(e.before()).hasValueSatisfying(before -> assertThat(before).isEmpty());
    }
    EventCodec.Unreadable second = unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":0},{\"seq\":1}]");
    assertThat(second.syntax()).isFalse();
    assertThat(second.before()).hasValueSatisfying(before -> assertThat(before).hasSize(1));
    assertThat(unreadable("[]").before()).isEmpty();
    assertThat(unreadable("{\"seq\":0}").getMessage()).isEqualTo("not a non-empty JSON array of events");
  }

  @Test
  void aSyntaxErrorAnywhereOutranksAWrongEventBeforeIt() {
    EventCodec.Unreadable e = unreadable("[{\"seq\":\"x\"},{\"seq\":0,\"data\":[1,}]");
    assertThat(e.syntax()).isTrue();
    assertThat(unreadable("{\"seq\":0,").syntax()).isTrue();
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":0}] [").syntax()).isTrue();
  }

  @Test
  void skippedPayloadsAreCheckedAsATreeParseWouldCheckThem() {
    // a byte that is not UTF-8 deep inside a payload nobody parses
    byte[] notUtf8 = utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{\"a\":[\"x?y\"]}}]");
    notUtf8[new String(notUtf8, StandardCharsets.UTF_8).indexOf('?')] = (byte) 0xff;
    assertThat(unreadable(notUtf8).syntax()).isTrue();
    byte[] badContinuation = utf8("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{\"a\":[\"x\u00e9y\"]}}]");
    badContinuation[new String(badContinuation, StandardCharsets.ISO_8859_1).lastIndexOf('y') - 1] = 'z';
    assertThat(unreadable(badContinuation).syntax()).isTrue();
    // nesting past the parser's limit, counted from the line's array
    String deep = "[".repeat(998) + "]".repeat(998);
    assertThat(read("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":" + deep + "}]").get(0).data().isArray()).isTrue();
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":[" + deep + "]}]").syntax()).isTrue();
    // a decimal the tree's BigDecimal node cannot hold
    assertThat(unreadable("[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":[1e99999999999]}]").syntax()).isTrue();
  }

  @Test
  void aStringTooLongForTheParserIsRefusedThoughSkippingDoesNotMeasureIt() {
    int max = Json.mapper().getFactory().streamReadConstraints().getMaxStringLength();
    String line = "[{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":[\"" + "a".repeat(max + 1) + "\"]}]";
    assertThat(unreadable(line).syntax()).isTrue();
  }

  @Test
  void aSingleStoredEventIsReadAsALineReadsIt() {
    byte[] row = utf8("{\"seq\":2,\"type\":\"t\",\"time\":1,\"data\":[true]}");
    assertThat(EventCodec.readEvent(row, 0, row.length)).isEqualTo(SessionEvent.of(2, "t", 1, Json.parse("[true]")));
    byte[] bad = utf8("{\"seq\":2,\"type\":\"t\",\"time\":1}");
    assertThatThrownBy(() -> EventCodec.readEvent(bad, 0, bad.length)).hasMessage("event member \"data\" is missing");
    byte[] trailing = utf8("{\"seq\":2,\"type\":\"t\",\"time\":1,\"data\":0} 1");
    assertThatThrownBy(() -> EventCodec.readEvent(trailing, 0, trailing.length))
        .isInstanceOfSatisfying(EventCodec.Unreadable.class, e -> assertThat(e.syntax()).isTrue());
  }
}
