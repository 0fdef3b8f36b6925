package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.fuzz.FuzzRun.Verdict;
import dev.horae.spi.session.EventCodec;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The session event codec and the session header codec of the host contract, which every store
 * and offline tool uses to read persisted events and headers. Their documented error is {@link
 * IllegalArgumentException} (the shared parser's "not JSON" included); a decoded value must
 * encode and decode back to itself.
 */
class SessionCodecFuzzTest {

  static List<byte[]> events() {
    List<String> seeds = new ArrayList<>(List.of(
        "{\"seq\":0,\"type\":\"user/message\",\"time\":1755650000000,\"data\":{\"role\":\"user\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"source\":{\"kind\":\"user\"}}}",
        "{\"seq\":4,\"type\":\"x\",\"time\":-1,\"data\":null,\"surfaceOp\":{\"op\":\"append\"}}",
        "{\"seq\":5,\"type\":\"x\",\"time\":1,\"data\":[1,2.50,\"a\",{}],\"surfaceOp\":{\"op\":\"replace\",\"start\":0,"
            + "\"end\":3},\"sourceEventSeqs\":[1,2]}",
        "{\"seq\":9007199254740993,\"type\":\"t\",\"time\":9223372036854775807,\"data\":1e2,\"surfaceOp\":null}"));
    Corpus.vectorEvents().forEach(e -> seeds.add(Json.write(e)));
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> headers() {
    return FuzzRun.corpus(List.of(
        "{\"version\":1,\"id\":\"s1\",\"createdAt\":1755650000000}",
        "{\"version\":1,\"id\":\"child\",\"createdAt\":0,\"cwd\":\"/tmp\",\"parentSession\":\"s1\",\"seedLength\":3,"
            + "\"origin\":\"subagent\",\"delegationDepth\":1,\"agentPreset\":\"p\",\"timeZone\":\"Europe/Berlin\"}",
        "{\"version\":2,\"id\":\"s \u00fc/..\",\"createdAt\":-1,\"timeZone\":null,\"cwd\":null}"));
  }

  static Verdict event(byte[] input) {
    // a store's reader of the stored bytes (without a parser for the layout the stores write,
    // else Jackson's stream): what it reads, the tree reading of the same text must read alike
    SessionEvent fromBytes;
    try {
      fromBytes = EventCodec.readEvent(input, 0, input.length);
    } catch (EventCodec.Unreadable e) {
      fromBytes = null;
    }
    JsonNode json;
    try {
      json = Json.parse(FuzzRun.text(input));
    } catch (IllegalArgumentException e) {
      assertThat(fromBytes).as("read from bytes the tree parser refuses").isNull();
      return Verdict.UNPARSABLE;
    }
    SessionEvent event;
    try {
      event = EventCodec.fromJson(json);
    } catch (IllegalArgumentException e) {
      assertThat(fromBytes).as("read from bytes whose tree is no event").isNull();
      return Verdict.DOMAIN_ERROR;
    }
    if (fromBytes != null) {
      // the bytes' reader keeps the payload's text as stored, the tree's event its tree written
      // again (1e0 stays 1e0 there, becomes 1 here): the same value, member for member
      assertThat(fromBytes.seq()).isEqualTo(event.seq());
      assertThat(fromBytes.type()).isEqualTo(event.type());
      assertThat(fromBytes.time()).isEqualTo(event.time());
      assertThat(fromBytes.surfaceOp()).isEqualTo(event.surfaceOp());
      assertThat(fromBytes.sourceEventSeqs()).isEqualTo(event.sourceEventSeqs());
      assertThat(Json.sameValue(fromBytes.data(), event.data())).as("%s against %s", fromBytes, event).isTrue();
    }
    // the text a store writes reads back as the same event, through the short path when the
    // payload allows it
    byte[] written = EventCodec.write(event).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(EventCodec.readEvent(written, 0, written.length)).isEqualTo(event);
    // what a store writes must read back as the same stored form (a number written 1.0e1 is
    // stored as 10 and reads back as an integer, so node types may change once, values never)
    String stored = Json.write(EventCodec.toJson(event));
    assertThat(Json.write(EventCodec.toJson(EventCodec.fromJson(Json.parse(stored))))).isEqualTo(stored);
    return Verdict.VALID;
  }

  static Verdict header(byte[] input) {
    JsonNode json;
    try {
      json = Json.parse(FuzzRun.text(input));
    } catch (IllegalArgumentException e) {
      return Verdict.UNPARSABLE;
    }
    SessionHeader header;
    try {
      header = SessionHeader.fromJson(json);
    } catch (IllegalArgumentException e) {
      return Verdict.DOMAIN_ERROR;
    }
    assertThat(SessionHeader.fromJson(Json.parse(Json.write(header.toJson())))).isEqualTo(header);
    return Verdict.VALID;
  }

  @Test
  void eventCodec() {
    FuzzRun.assertClean(FuzzRun.run("EventCodec", 1, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, events(),
        SessionCodecFuzzTest::event));
  }

  @Test
  void sessionHeader() {
    FuzzRun.assertClean(FuzzRun.run("SessionHeader", 2, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, headers(),
        SessionCodecFuzzTest::header));
  }

  @Test
  @Tag("slow")
  void eventCodecLong() {
    FuzzRun.assertClean(FuzzRun.run("EventCodec", 101, FuzzRun.LONG, FuzzRun.LONG_BUDGET, events(),
        SessionCodecFuzzTest::event));
  }

  @Test
  @Tag("slow")
  void sessionHeaderLong() {
    FuzzRun.assertClean(FuzzRun.run("SessionHeader", 102, FuzzRun.LONG, FuzzRun.LONG_BUDGET, headers(),
        SessionCodecFuzzTest::header));
  }
}
