package dev.horae.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.session.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every public {@code gate} conformance vector against the public API. */
class GateVectorsTest {

  /** The outcome of one catalogue call: a JSON value, or a domain error object. */
  record Result(Optional<JsonNode> value, Optional<ObjectNode> error) {}

  static Result value(JsonNode v) {
    return new Result(Optional.of(v), Optional.empty());
  }

  static Result error(ObjectNode e) {
    return new Result(Optional.empty(), Optional.of(e));
  }

  static ObjectNode message(String m) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("message", m);
    return o;
  }

  /** The catalogue: fn name → public API call. */
  static Result call(String fn, JsonNode args) {
    switch (fn) {
      case "gate.validateResume" -> {
        Optional<ResumeError> e = ResumeValidation.validate(
            GateJson.decodeTicket(args.get("ticket")),
            GateJson.decodeResumeCommand(args.get("command")));
        return e.isPresent() ? error(GateJson.encodeResumeError(e.get())) : value(TextNode.valueOf("ok"));
      }
      case "gate.decodeTicket" -> {
        try {
          return value(GateJson.encodeTicket(GateJson.decodeTicket(args.get("json"))));
        } catch (GateJsonException e) {
          return error(message(Objects.requireNonNull(e.getMessage())));
        }
      }
      case "gate.auditLabel" -> {
        return value(TextNode.valueOf(GateJson.decodeOutcome(args.get("outcome")).auditLabel()));
      }
      case "gate.fromPermission" -> {
        return value(GateJson.encodeOutcome(GateJson.decodeVerdict(args.get("verdict")).toGateOutcome()));
      }
      case "gate.idBoundAllows" -> {
        return value(BooleanNode.valueOf(
            GateJson.decodeIdBound(args.get("bound")).allows(args.get("id").asText())));
      }
      case "gate.mergeEnv" -> {
        List<Plugin> plugins = new ArrayList<>();
        args.get("plugins").forEach(p -> plugins.add(GateJson.decodePlugin(p)));
        try {
          return value(GateJson.encodeEnv(ResolvedExecutionEnv.merge(plugins)));
        } catch (EnvMergeException e) {
          return error(GateJson.encodeMergeError(e));
        }
      }
      case "gate.permits" -> {
        return value(BooleanNode.valueOf(GateJson.decodeRunState(args.get("from"))
            .permits(GateJson.decodeRunState(args.get("to")))));
      }
      case "gate.streamToken" -> {
        return value(TextNode.valueOf(AwaitReason.fromWireName(args.get("reason").asText())
            .orElseThrow().streamToken()));
      }
      default -> throw new IllegalArgumentException("unknown fn " + fn);
    }
  }

  static List<JsonNode> cases() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (InputStream in = GateVectorsTest.class.getResourceAsStream("/vectors/gate.jsonl");
        BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(in), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          out.add(Json.parse(line));
        }
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everyPublicVectorPasses() throws IOException {
    List<JsonNode> cases = cases();
    assertThat(cases).hasSize(87);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.get("id").asText(), () -> {
      Result r = call(c.get("fn").asText(), c.get("args"));
      JsonNode expect = c.get("expect");
      if (expect.has("value")) {
        assertThat(r.error()).as("unexpected error").isEmpty();
        assertThat(normalize(r.value().orElseThrow())).isEqualTo(normalize(expect.get("value")));
      } else if (expect.has("text")) {
        assertThat(r.value().orElseThrow().asText()).isEqualTo(expect.get("text").asText());
      } else if (expect.has("error")) {
        assertThat(r.error()).as("expected an error").isPresent();
        ObjectNode actual = r.error().orElseThrow();
        expect.get("error").properties().forEach(f ->
            assertThat(actual.get(f.getKey())).as(f.getKey()).isEqualTo(f.getValue()));
      } else {
        throw new AssertionError("unknown expectation form " + expect);
      }
    }));
  }

  // numbers compare by value: re-parse through the shared mapper after writing
  private static JsonNode normalize(JsonNode n) {
    return Json.parse(Json.write(n));
  }
}
