package dev.horae.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner itself: cases, expectation forms, failure lines, summary and exit status. */
class ConformanceRunnerTest {

  @TempDir Path dir;

  private final List<String> failures = new ArrayList<>();

  private final ConformanceRunner demo =
      new ConformanceRunner(List.of(new DemoSuite()), List.of());

  private Report run(String... lines) throws IOException {
    Path file = dir.resolve("cases.jsonl");
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return demo.run(List.of(file), failures::add);
  }

  private static String echo(String id, String result, String expect) {
    return "{\"id\":\"" + id + "\",\"suite\":\"demo\",\"fn\":\"demo.echo\",\"args\":{\"result\":"
        + result + "},\"expect\":" + expect + "}";
  }

  @Test
  void aWrongExpectedTextIsOneFailLineWithExpectedAndActual() throws IOException {
    Path file = dir.resolve("broken.jsonl");
    Files.writeString(file, "{\"id\":\"S-broken\",\"suite\":\"schedule\",\"fn\":\"schedule.allocateId\","
        + "\"args\":{\"seenIds\":[\"custom\",\"schedule-3\"]},\"expect\":{\"text\":\"schedule-9\"}}\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Conformance.run(new String[] {file.toString()}, ConformanceRunner.standard(List.of()),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));

    assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
        "FAIL S-broken: {\"text\":\"schedule-9\"} <> {\"text\":\"schedule-4\"}",
        "0 passed, 1 failed");
    assertThat(status).isEqualTo(1);
  }

  @Test
  void summaryCountsPassesAndFailuresAndExitStatusFollowsFailures() throws IOException {
    Report report = run(echo("a", "1", "{\"value\":1}"), echo("b", "2", "{\"value\":3}"), echo("c", "\"t\"", "{\"text\":\"t\"}"));

    assertThat(report.summary()).isEqualTo("2 passed, 1 failed");
    assertThat(report.exitStatus()).isEqualTo(1);
    assertThat(failures).containsExactly("FAIL b: {\"value\":3} <> {\"value\":2}");
    assertThat(new Report(3, 0, List.of()).exitStatus()).isZero();
  }

  @Test
  void anUnknownFnFailsThatCaseAndTheRunGoesOn() throws IOException {
    Report report = run(
        "{\"id\":\"u\",\"suite\":\"demo\",\"fn\":\"demo.nope\",\"args\":{},\"expect\":{\"value\":1}}",
        echo("after", "1", "{\"value\":1}"));

    assertThat(report.passed()).isEqualTo(1);
    assertThat(failures).containsExactly("FAIL u: {\"value\":1} <> {\"broken\":\"unknown fn \\\"demo.nope\\\"\"}");
  }

  @Test
  void unusableArgsAndUnexpectedExceptionsFailTheirCaseOnly() throws IOException {
    Report report = run(
        "{\"id\":\"need\",\"suite\":\"demo\",\"fn\":\"demo.need\",\"args\":{},\"expect\":{\"text\":\"x\"}}",
        "{\"id\":\"throw\",\"suite\":\"demo\",\"fn\":\"demo.throw\",\"args\":{},\"expect\":{\"text\":\"x\"}}",
        "{\"id\":\"notobj\",\"suite\":\"demo\",\"fn\":\"demo.need\",\"args\":[1],\"expect\":{\"text\":\"x\"}}",
        "{\"id\":\"ok\",\"suite\":\"demo\",\"fn\":\"demo.need\",\"args\":{\"x\":1},\"expect\":{\"text\":\"x\"}}");

    assertThat(report.summary()).isEqualTo("1 passed, 3 failed");
    assertThat(failures).containsExactly(
        "FAIL need: {\"text\":\"x\"} <> {\"broken\":\"unusable args: args.x is required\"}",
        "FAIL throw: {\"text\":\"x\"} <> {\"broken\":\"unexpected IllegalStateException: boom\"}",
        "FAIL notobj: {\"text\":\"x\"} <> {\"broken\":\"unusable args: args must be an object\"}");
  }

  @Test
  void libraryArgsThatDoNotFitFailWithTheArgumentNamed() throws IOException {
    Path file = dir.resolve("lib.jsonl");
    Files.writeString(file, "{\"id\":\"L1\",\"suite\":\"schedule\",\"fn\":\"schedule.view\","
        + "\"args\":{\"record\":{},\"now\":\"yesterday\"},\"expect\":{\"value\":{}}}\n"
        + "{\"id\":\"L2\",\"suite\":\"jobs\",\"fn\":\"jobs.statusLine\",\"args\":{\"status\":\"weird\"},"
        + "\"expect\":{\"text\":\"x\"}}\n");
    Report report = ConformanceRunner.standard(List.of()).run(List.of(file), failures::add);

    assertThat(report.summary()).isEqualTo("0 passed, 2 failed");
    assertThat(failures.get(0)).startsWith("FAIL L1: {\"value\":{}} <> {\"broken\":\"unusable args: args.");
    assertThat(failures.get(1)).contains("not a job status: weird");
  }

  @Test
  void malformedLinesDuplicateIdsAndWrongSuitesFailAlone() throws IOException {
    Report report = run(
        "not json",
        "[1,2]",
        echo("d", "1", "{\"value\":1}"),
        echo("d", "1", "{\"value\":1}"),
        "{\"id\":\"s\",\"suite\":\"gate\",\"fn\":\"demo.echo\",\"args\":{},\"expect\":{\"null\":true}}",
        echo("two", "1", "{\"value\":1,\"text\":\"1\"}"));

    assertThat(report.summary()).isEqualTo("1 passed, 5 failed");
    String file = dir.resolve("cases.jsonl").toString();
    assertThat(failures.get(0)).startsWith("FAIL " + file + ":1: a case <> {\"broken\":\"unreadable case: ");
    assertThat(failures.get(1)).isEqualTo("FAIL " + file + ":2: a case <> {\"broken\":\"unreadable case: a case must be a JSON object\"}");
    assertThat(failures.get(2)).isEqualTo("FAIL d: a unique id <> {\"broken\":\"duplicate id\"}");
    assertThat(failures.get(3)).contains("belongs to suite demo");
    assertThat(failures.get(4)).contains("unusable expect: expect has both value and text");
  }

  @Test
  void aLineThatIsNotUtf8FailsAloneAndTheFileRunsOn() throws IOException {
    // found by the fuzz module: one malformed byte made the whole file an IOException
    Path file = dir.resolve("cases.jsonl");
    byte[] bad = "{\"id\":\"x\u00e9\"}".getBytes(StandardCharsets.UTF_8);
    bad[bad.length - 4] = (byte) 0xff;
    try (var out = Files.newOutputStream(file)) {
      out.write((echo("one", "1", "{\"value\":1}") + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.write(bad);
      out.write(("\r" + echo("two", "2", "{\"value\":2}") + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Report report = demo.run(List.of(file), failures::add);
    assertThat(report.summary()).isEqualTo("2 passed, 1 failed");
    assertThat(failures).singleElement().asString()
        .startsWith("FAIL " + file + ":2: a case <> {\"broken\":\"unreadable case: not UTF-8: ");
    Path scenarios = dir.resolve("bad.scenarios.json");
    Files.write(scenarios, bad);
    assertThat(demo.run(List.of(scenarios), failures::add).summary()).isEqualTo("0 passed, 1 failed");
    assertThat(failures.get(1)).startsWith("FAIL " + scenarios + ": a case <> {\"broken\":\"unreadable case: not UTF-8: ");
  }

  @Test
  void valueComparesDeeplyIgnoringKeyOrderAndNumbersByValue() throws IOException {
    Report report = run(
        echo("order", "{\"a\":1,\"b\":[1,{\"c\":30}]}", "{\"value\":{\"b\":[1,{\"c\":30.0}],\"a\":1.00}}"),
        echo("arrays", "[1,2]", "{\"value\":[2,1]}"),
        echo("extra", "{\"a\":1,\"b\":2}", "{\"value\":{\"a\":1}}"),
        echo("types", "\"1\"", "{\"value\":1}"),
        echo("big", "18446744073709551615", "{\"value\":18446744073709551615}"));

    assertThat(report.passed()).isEqualTo(2);
    assertThat(failures).extracting(l -> l.substring(5, l.indexOf(':'))).containsExactly("arrays", "extra", "types");
  }

  @Test
  void nullAndErrorForms() throws IOException {
    Report report = run(
        "{\"id\":\"n\",\"suite\":\"demo\",\"fn\":\"demo.none\",\"args\":{},\"expect\":{\"null\":true}}",
        echo("n2", "null", "{\"null\":true}"),
        "{\"id\":\"e\",\"suite\":\"demo\",\"fn\":\"demo.fail\",\"args\":{\"error\":{\"code\":\"c\",\"message\":\"m\",\"id\":\"x\"}},"
            + "\"expect\":{\"error\":{\"code\":\"c\",\"id\":\"x\"}}}",
        "{\"id\":\"e2\",\"suite\":\"demo\",\"fn\":\"demo.fail\",\"args\":{\"error\":{\"code\":\"c\"}},"
            + "\"expect\":{\"error\":{\"code\":\"c\",\"message\":\"m\"}}}",
        "{\"id\":\"e3\",\"suite\":\"demo\",\"fn\":\"demo.throw\",\"args\":{},\"expect\":{\"error\":{}}}");

    assertThat(report.summary()).isEqualTo("2 passed, 3 failed");
    assertThat(failures).containsExactly(
        "FAIL n2: {\"null\":true} <> {\"value\":null}",
        "FAIL e2: {\"error\":{\"code\":\"c\",\"message\":\"m\"}} <> {\"error\":{\"code\":\"c\"}}",
        "FAIL e3: {\"error\":{}} <> {\"broken\":\"unexpected IllegalStateException: boom\"}");
  }

  @Test
  void containsAndBytesAtMostCheckTheStringOrTheTextMember() throws IOException {
    Report report = run(
        echo("c1", "\"héllo world\"", "{\"contains\":[\"héllo\",\"world\"],\"bytesAtMost\":12}"),
        echo("c2", "\"héllo world\"", "{\"bytesAtMost\":11}"),
        echo("c3", "{\"text\":\"abc\",\"summary\":\"s\"}", "{\"contains\":[\"b\"]}"),
        echo("c4", "\"abc\"", "{\"text\":\"abc\",\"contains\":[\"z\"]}"),
        echo("c5", "7", "{\"contains\":[\"7\"]}"));

    assertThat(report.passed()).isEqualTo(2);
    assertThat(failures).extracting(l -> l.substring(5, l.indexOf(':'))).containsExactly("c2", "c4", "c5");
  }

  @Test
  void specialNumbersAreDecodedInArgs() throws IOException {
    Report report = run(
        "{\"id\":\"inf\",\"suite\":\"demo\",\"fn\":\"demo.isInfinite\",\"args\":{\"n\":{\"$number\":\"-Infinity\"}},\"expect\":{\"value\":true}}",
        "{\"id\":\"nan\",\"suite\":\"demo\",\"fn\":\"demo.echo\",\"args\":{\"result\":[{\"$number\":\"NaN\"}]},\"expect\":{\"value\":[{\"$number\":\"NaN\"}]}}",
        "{\"id\":\"bad\",\"suite\":\"demo\",\"fn\":\"demo.echo\",\"args\":{\"result\":{\"$number\":\"1e999\"}},\"expect\":{\"value\":1}}");

    // expectations are compared as written: {"$number":"NaN"} in expect is an object, not NaN
    assertThat(report.summary()).isEqualTo("1 passed, 2 failed");
    assertThat(failures.get(1)).contains("unknown $number");
  }

  @Test
  void aDirectoryRunsEveryCaseFileBelowItInPathOrder() throws IOException {
    Files.createDirectories(dir.resolve("b/nested"));
    Files.writeString(dir.resolve("b/nested/two.jsonl"), echo("two", "2", "{\"value\":0}") + "\n");
    Files.writeString(dir.resolve("a.jsonl"), echo("one", "1", "{\"value\":0}") + "\n\n");
    Files.writeString(dir.resolve("b/ignored.json"), echo("x", "1", "{\"value\":0}"));
    Files.writeString(dir.resolve("b/notes.txt"), "not a case");
    Files.writeString(dir.resolve("b/more.scenarios.json"), "[" + echo("three", "3", "{\"value\":3}") + "]");

    Report report = demo.run(List.of(dir), failures::add);

    assertThat(report.summary()).isEqualTo("1 passed, 2 failed");
    assertThat(failures).extracting(l -> l.substring(5, l.indexOf(':'))).containsExactly("one", "two");
  }

  @Test
  void usageAndMissingPathsExitWithTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    assertThat(Conformance.run(new String[0], demo, o, e)).isEqualTo(2);
    assertThat(Conformance.run(new String[] {dir.resolve("missing").toString()}, demo, o, e)).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:").contains("missing");
  }

  @Test
  void aFunctionMayBeClaimedOnce() {
    assertThatThrownBy(() -> new ConformanceRunner(List.of(new DemoSuite(), new DemoSuite()), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("claimed twice");
  }
}
