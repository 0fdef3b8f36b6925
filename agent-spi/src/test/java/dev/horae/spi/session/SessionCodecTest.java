package dev.horae.spi.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SessionCodecTest {

  private static JsonNode nested(int depth) {
    com.fasterxml.jackson.databind.node.ArrayNode top = Json.mapper().createArrayNode();
    com.fasterxml.jackson.databind.node.ArrayNode at = top;
    for (int i = 1; i < depth; i++) {
      at = at.addArray();
    }
    return top;
  }

  @Test
  void aStorableEventReadsBackAloneAndInsideALine() {
    SessionEvent shallow = SessionEvent.of(2, "t", 5, nested(998));
    assertThat(EventCodec.writeStorable(shallow)).isEqualTo(EventCodec.write(shallow));
    // 999 levels of data: the event alone reads back (1,000 levels), inside a line's array it would not
    SessionEvent deep = SessionEvent.of(2, "t", 5, nested(999));
    byte[] alone = EventCodec.write(deep).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(EventCodec.readEvent(alone, 0, alone.length)).isEqualTo(deep);
    assertThatThrownBy(() -> EventCodec.writeStorable(deep))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("JSON value cannot be stored and read back: ");
  }

  @Test
  void headerRoundTripsAndLeavesAbsentMembersOut() {
    SessionHeader root = SessionHeader.root("s1", 1000, Optional.of("Asia/Shanghai"));
    assertThat(Json.write(root.toJson())).isEqualTo("{\"version\":1,\"id\":\"s1\",\"createdAt\":1000,\"timeZone\":\"Asia/Shanghai\"}");
    assertThat(SessionHeader.fromJson(root.toJson())).isEqualTo(root);

    SessionHeader full = new SessionHeader(1, "c", 5, Optional.of("/w"), Optional.of("p"), 7, Optional.of("subagent"),
        OptionalInt.of(2), Optional.of("preset"), Optional.empty());
    assertThat(SessionHeader.fromJson(Json.parse(Json.write(full.toJson())))).isEqualTo(full);
  }

  @Test
  void forkChildInheritsZoneAndRecordsParentAndSeed() {
    SessionHeader child = SessionHeader.root("p", 1, Optional.of("UTC")).forkChild("c", 2, 4);
    assertThat(child.parentSession()).contains("p");
    assertThat(child.seedLength()).isEqualTo(4);
    assertThat(child.timeZone()).contains("UTC");
  }

  @Test
  void headerRejectsBadShapes() {
    assertThatThrownBy(() -> SessionHeader.fromJson(Json.parse("{\"version\":1,\"createdAt\":1}")))
        .hasMessageContaining("\"id\"");
    assertThatThrownBy(() -> SessionHeader.fromJson(Json.parse("[]"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SessionHeader.root(" ", 1, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eventRoundTripsWithSurfaceOpAndSources() {
    SessionEvent plain = SessionEvent.of(0, "schedule/change", 10, Json.parse("{\"a\":30.0}"));
    SessionEvent replaced = new SessionEvent(3, "user/message", 11, Json.parse("{}"),
        Optional.of(new SurfaceOp.Replace(0, 2)), List.of(0L, 1L, 2L));
    SessionEvent visible = new SessionEvent(4, "user/message", 12, Json.parse("{}"), Optional.of(SurfaceOp.APPEND), List.of());

    for (SessionEvent e : List.of(plain, replaced, visible)) {
      assertThat(EventCodec.fromJson(Json.parse(Json.write(EventCodec.toJson(e))))).isEqualTo(e);
    }
    assertThat(Json.write(EventCodec.toJson(plain))).isEqualTo("{\"seq\":0,\"type\":\"schedule/change\",\"time\":10,\"data\":{\"a\":30.0}}");
  }

  @Test
  void eventDecoderNamesTheBadMember() {
    assertThatThrownBy(() -> EventCodec.fromJson(Json.parse("{\"seq\":\"x\",\"type\":\"t\",\"time\":1,\"data\":{}}")))
        .hasMessageContaining("\"seq\"");
    assertThatThrownBy(() -> EventCodec.fromJson(Json.parse("{\"seq\":1,\"type\":\"t\",\"time\":1}")))
        .hasMessageContaining("\"data\"");
    assertThatThrownBy(() -> EventCodec.fromJson(Json.parse("{\"seq\":1,\"type\":\"t\",\"time\":1,\"data\":{},\"surfaceOp\":{\"op\":\"x\"}}")))
        .hasMessageContaining("unknown op");
    assertThatThrownBy(() -> new SurfaceOp.Replace(3, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theTreeDecoderIsTheStoredOneWalkingTheTree() {
    // one decoder (readEvent): a tree of a text decodes to what the text's bytes decode to
    List<String> texts = List.of(
        "{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":{\"a\":[1,2.50,\"x\"]}}",
        "{\"data\":null,\"time\":-5,\"type\":\"u\",\"seq\":7,\"surfaceOp\":{\"op\":\"replace\",\"start\":1,\"end\":3},"
            + "\"sourceEventSeqs\":[1,2],\"other\":{\"x\":1.5}}",
        "{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":0,\"surfaceOp\":null,\"sourceEventSeqs\":\"no\"}",
        "{\"seq\":\"x\",\"type\":\"t\",\"time\":1,\"data\":{}}",
        "{\"seq\":1.0,\"type\":\"t\",\"time\":1,\"data\":{}}",
        "{\"seq\":99999999999999999999,\"type\":\"t\",\"time\":1,\"data\":{}}",
        "{\"seq\":0,\"type\":[],\"time\":1,\"data\":{}}",
        "{\"seq\":0,\"type\":\"t\",\"time\":null,\"data\":{}}",
        "{\"seq\":0,\"type\":\"t\",\"time\":1}",
        "{\"seq\":0,\"type\":\"t\",\"time\":1,\"data\":1,\"surfaceOp\":{\"op\":\"x\"}}",
        "{\"seq\":-1,\"type\":\"t\",\"time\":1,\"data\":1}",
        "{\"seq\":0,\"type\":\" \",\"time\":1,\"data\":1}",
        "[1]",
        "5");
    for (String text : texts) {
      byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(outcome(() -> EventCodec.fromJson(Json.parse(text)))).as(text)
          .isEqualTo(outcome(() -> EventCodec.readEvent(utf8, 0, utf8.length)));
    }
  }

  @Test
  void theTreeDecoderTakesATreesOwnNodesAsTheConstructorDoes() {
    com.fasterxml.jackson.databind.node.ObjectNode tree = Json.mapper().createObjectNode();
    // a big-integer node a long holds, as a caller's tree may carry one
    tree.put("seq", java.math.BigInteger.valueOf(3)).put("type", "t").put("time", 1L);
    tree.putObject("data").put("d", 1.5);
    tree.put("ignored", Double.NaN);
    SessionEvent event = EventCodec.fromJson(tree);
    assertThat(event.seq()).isEqualTo(3);
    assertThat(Json.write(event.data())).isEqualTo("{\"d\":1.5}");
    com.fasterxml.jackson.databind.JsonNode deep = Json.mapper().createArrayNode();
    for (int i = 0; i < 1000; i++) {
      deep = Json.mapper().createArrayNode().add(deep);
    }
    tree.set("data", deep);
    assertThatThrownBy(() -> EventCodec.fromJson(tree))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be stored and read back");
  }

  // the event written out, or the error's message (the tree path's IllegalArgumentException and
  // the bytes' Unreadable carry the same texts)
  private static String outcome(java.util.function.Supplier<SessionEvent> decode) {
    try {
      return EventCodec.write(decode.get());
    } catch (IllegalArgumentException | EventCodec.Unreadable e) {
      return "error: " + e.getMessage();
    }
  }

  @Test
  void unpairedSurrogatesAreWrittenAsEscapesSoUtf8BytesReadBackTheSameText() {
    // found by the fuzz module: written raw, the UTF-8 bytes held "?" and the file store read
    // back another string than it had acknowledged
    JsonNode value = Json.parse("{\"t\":\"a\\ud800b\\udfff\",\"pair\":\"\ud83d\udd70\"}");
    String text = Json.write(value);
    assertThat(text).isEqualTo("{\"t\":\"a\\ud800b\\udfff\",\"pair\":\"\ud83d\udd70\"}");
    byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(Json.parse(new String(utf8, java.nio.charset.StandardCharsets.UTF_8))).isEqualTo(value);
    assertThat(Json.write(Json.parse("[\"\\udc00\\ud800\"]"))).isEqualTo("[\"\\udc00\\ud800\"]");
  }

  @Test
  void checkReadableRefusesExactlyWhatTheParserWouldRefuse() {
    String deepest = "[".repeat(1000) + "]".repeat(1000);
    Json.checkReadable(Json.parse(deepest), 0);
    assertThatThrownBy(() -> Json.parse("[" + deepest + "]")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.checkReadable(Json.parse(deepest), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("JSON value cannot be stored and read back: it nests deeper than 1000 levels");
    // built in code, far too deep for a recursive walk: refused, not a StackOverflowError
    com.fasterxml.jackson.databind.node.ArrayNode top = Json.mapper().createArrayNode();
    com.fasterxml.jackson.databind.node.ArrayNode at = top;
    for (int i = 0; i < 300_000; i++) {
      at = at.addArray();
    }
    assertThatThrownBy(() -> Json.checkReadable(top, 0)).hasMessageContaining("nests deeper than 1000 levels");
    String longest = "x".repeat(20_000_000);
    JsonNode text = Json.mapper().getNodeFactory().textNode(longest);
    Json.checkReadable(text, 0);
    assertThat(Json.parse(Json.write(text)).textValue()).hasSize(20_000_000);
    assertThatThrownBy(() -> Json.checkReadable(Json.mapper().getNodeFactory().textNode(longest + "x"), 0))
        .hasMessage("JSON value cannot be stored and read back: a string of 20000001 characters exceeds 20000000");
    com.fasterxml.jackson.databind.node.ObjectNode name = Json.mapper().createObjectNode();
    name.put("k".repeat(50_001), 1);
    assertThatThrownBy(() -> Json.checkReadable(name, 0))
        .hasMessage("JSON value cannot be stored and read back: a member name of 50001 characters exceeds 50000");
    JsonNode number = Json.mapper().getNodeFactory().numberNode(new java.math.BigInteger("9".repeat(1001)));
    assertThatThrownBy(() -> Json.parse(Json.write(number))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.checkReadable(number, 0))
        .hasMessage("JSON value cannot be stored and read back: a number longer than 1000 characters");
    Json.checkReadable(Json.parse("9".repeat(1000)), 0);
    Json.checkReadable(Json.parse("[30.0,1e999999999,-0.0,{\"a\":null}]"), 0);
  }

  @Test
  void jsonKeepsExactNumbersAndSnapshotsAreIndependent() {
    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"n\":30.0,\"big\":12345678901234567890}");
    assertThat(Json.write(tree)).isEqualTo("{\"n\":30.0,\"big\":12345678901234567890}");
    var copy = Json.snapshot(tree);
    tree.put("n", 1);
    assertThat(copy.get("n").decimalValue()).isEqualByComparingTo("30.0");
    assertThatThrownBy(() -> Json.parse("{")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sameValueComparesNumbersByValueAndIgnoresMemberOrder() {
    assertThat(Json.sameValue(Json.parse("{\"a\":30,\"b\":[1.50]}"), Json.parse("{\"b\":[1.5],\"a\":30.0}"))).isTrue();
    assertThat(Json.sameValue(Json.parse("{\"a\":1}"), Json.parse("{\"a\":1,\"b\":2}"))).isFalse();
    assertThat(Json.sameValue(Json.parse("[1,2]"), Json.parse("[2,1]"))).isFalse();
    assertThat(Json.sameValue(Json.parse("\"1\""), Json.parse("1"))).isFalse();
  }
}
