package dev.horae.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** A tiny suite whose functions produce each kind of outcome on demand, to test the runner alone. */
final class DemoSuite implements SuiteAdapter {

  @Override
  public String suite() {
    return "demo";
  }

  @Override
  public Set<String> functions() {
    return Set.of("demo.echo", "demo.none", "demo.fail", "demo.throw", "demo.need", "demo.isInfinite");
  }

  @Override
  public Outcome call(String fn, JsonNode args) {
    return switch (fn) {
      case "demo.echo" -> Outcome.value(args.path("result"));
      case "demo.none" -> Outcome.none();
      case "demo.fail" -> Outcome.error((ObjectNode) args.get("error"));
      case "demo.throw" -> throw new IllegalStateException("boom");
      case "demo.need" -> {
        if (!args.has("x")) {
          throw new UnusableArgsException("args.x is required");
        }
        yield Outcome.text("x");
      }
      case "demo.isInfinite" -> Outcome.value(BooleanNode.valueOf(Double.isInfinite(args.path("n").doubleValue())));
      default -> throw new UnusableArgsException("no demo function " + fn);
    };
  }
}
