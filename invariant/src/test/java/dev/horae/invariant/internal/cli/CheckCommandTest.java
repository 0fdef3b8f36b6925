package dev.horae.invariant.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.FileSessionStore;
import dev.horae.store.SyncMode;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.ScriptedModel;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {

  @TempDir Path root;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return CheckCommand.run(List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** A session written by the time-context plugin on the reference host, plus a reminder. */
  private static Session pluginSession() {
    TestHost host = TestHost.builder().start(Instant.parse("2026-07-14T00:00:00Z")).build();
    host.install(TimeContextPlugin.create());
    TestAgent agent = host.createAgent(CreateOptions.DEFAULT).useModel(new ScriptedModel().thenText("a").thenText("b"));
    host.prompt(agent, "hello");
    host.settle();
    host.advance(Duration.ofMinutes(1));
    agent.session().append(EventTypes.SCHEDULE_CHANGE, Json.parse(
        "{\"version\":1,\"operation\":\"create\",\"schedule\":{\"id\":\"schedule-1\",\"kind\":\"after\","
            + "\"prompt\":\"p\",\"afterSeconds\":30,\"scheduledAt\":\"2026-07-14T00:01:30.000Z\"}}"));
    host.prompt(agent, "again");
    host.settle();
    return agent.session();
  }

  private Path persist(SessionHeader header, List<SessionEvent> events) {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      store.persist(header, events).toCompletableFuture().join();
    }
    try (var dirs = Files.list(root)) {
      return dirs.filter(d -> d.getFileName().toString().equals(header.id())).findFirst().orElseThrow();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aValidLogIsCleanWithExitZero() {
    Session session = pluginSession();
    Path folder = persist(session.header(), session.events());

    assertThat(run("check", folder.toString())).isEqualTo(CheckCommand.CLEAN);
    assertThat(out()).isEqualTo(folder + ": ok (" + session.events().size() + " events)\n");
    assertThat(err()).isEmpty();
  }

  @Test
  void aCorruptedLogPrintsTheOffendingSeqWithExitOne() {
    Session session = pluginSession();
    List<SessionEvent> events = new ArrayList<>(session.events());
    long bad = events.size();
    events.add(SessionEvent.of(bad, EventTypes.SCHEDULE_CHANGE, 0,
        Json.parse("{\"version\":1,\"operation\":\"delete\",\"id\":\"missing\"}")));
    Path folder = persist(session.header(), events);

    // the events file itself is accepted too, as is the store root
    assertThat(run("check", folder.resolve("events.log").toString())).isEqualTo(CheckCommand.VIOLATIONS);
    assertThat(out()).isEqualTo(folder + ": seq " + bad
        + ": invariant violated by \"@deepseek-ai/dsh-tool-schedule\": schedule delete targets inactive id \"missing\"\n");
    out.reset();
    assertThat(run("check", root.toString())).isEqualTo(CheckCommand.VIOLATIONS);
    assertThat(out()).contains("seq " + bad + ": ");
  }

  @Test
  void aCorruptReadingIsReportedAtItsSeq() {
    Session session = pluginSession();
    List<SessionEvent> events = new ArrayList<>(session.events());
    int reading = 3;
    SessionEvent original = events.get(reading);
    String text = original.data().path("content").get(0).path("text").textValue();
    String forged = text.replace("turn 1, step 1", "turn 1, step 2");
    com.fasterxml.jackson.databind.node.ObjectNode data = original.data().deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) data.withArray("content").get(0)).put("text", forged);
    events.set(reading, new SessionEvent(reading, original.type(), original.time(), data, original.surfaceOp(), List.of()));
    Path folder = persist(session.header(), events);

    assertThat(run("check", folder.toString())).isEqualTo(CheckCommand.VIOLATIONS);
    assertThat(out()).startsWith(folder + ": seq 3: invariant violated by \"@deepseek-ai/dsh-time-context\": ");
  }

  @Test
  void unreadableInputExitsTwoAndTheRestIsStillChecked() throws IOException {
    Session session = pluginSession();
    Path folder = persist(session.header(), session.events());
    Path log = folder.resolve("events.log");
    List<String> lines = new ArrayList<>(Files.readAllLines(log));
    // corrupt a line that is not the last one: the store would refuse to open this log
    Files.write(log, List.of("00000000 []", lines.get(0)));

    assertThat(run("check", root.resolve("missing").toString(), folder.toString())).isEqualTo(CheckCommand.UNREADABLE);
    assertThat(err()).contains("missing: unreadable: no such file or directory");
    assertThat(err()).contains(folder + ": unreadable: commit log corrupt at line 1: ");
  }

  @Test
  void aTornLastLineIsIgnoredAsTheStoreWouldOnOpen() throws IOException {
    Session session = pluginSession();
    Path folder = persist(session.header(), session.events());
    Files.writeString(folder.resolve("events.log"), "deadbeef [{\"seq\":", StandardOpenOption.APPEND);

    assertThat(run("check", folder.toString())).isEqualTo(CheckCommand.CLEAN);
    assertThat(err()).contains("note: torn last line").contains("no final newline");
  }

  @Test
  void usageErrorsExitTwo() throws IOException {
    assertThat(run()).isEqualTo(CheckCommand.UNREADABLE);
    assertThat(run("verify", "x")).isEqualTo(CheckCommand.UNREADABLE);
    assertThat(err()).contains("usage: invariant check FILE...");
    Path stray = Files.writeString(root.resolve("stray.txt"), "x");
    assertThat(run("check", stray.toString())).isEqualTo(CheckCommand.UNREADABLE);
    assertThat(run("check", Files.createDirectories(root.resolve("empty")).toString())).isEqualTo(CheckCommand.UNREADABLE);
  }
}
