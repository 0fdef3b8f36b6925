package dev.horae.cli;

import static dev.horae.cli.Fixture.PARKED_RUN;
import static dev.horae.cli.Fixture.SESSION;
import static dev.horae.cli.Fixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.session.SessionEvent;
import dev.horae.store.FileSessionStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command over a file store folder that another runtime wrote (see {@link Fixture}). */
class FileStoreCliTest {

  @TempDir Path dir;
  private String data;

  @BeforeEach
  void writeTheStore() throws Exception {
    Fixture.write(HoraeRuntime.builder().dataDir(dir));
    data = "--data-dir=" + dir;
    App.DEPLOYS.set(0);
  }

  private List<SessionEvent> stored() {
    return FileSessionStore.peek(dir, SESSION).orElseThrow().events();
  }

  @Test
  void sessionsShowsTheParkedTurnThePendingReminderAndTheAwaitingCall() {
    Fixture.Run table = cli(data, "sessions");
    assertThat(table.exit()).isEqualTo(ExitCode.OK);
    assertThat(table.out().lines().toList()).hasSize(2);
    assertThat(table.out()).startsWith("SESSION").contains("ops-1").contains("Europe/Amsterdam").contains("parked turn-6");

    JsonNode json = cli(data, "--json", "sessions").json();
    assertThat(json).hasSize(1);
    JsonNode s = json.get(0);
    assertThat(s.path("session").asText()).isEqualTo(SESSION);
    assertThat(s.path("events").asInt()).isEqualTo(stored().size());
    assertThat(s.path("createdAt").asText()).isEqualTo("2026-12-01T09:00:00Z");
    assertThat(s.path("timeZone").asText()).isEqualTo("Europe/Amsterdam");
    assertThat(s.path("state").asText()).isEqualTo("parked turn-6");
    assertThat(s.path("pendingReminders").asInt()).isEqualTo(1);
    assertThat(s.path("awaiting").asInt()).isEqualTo(1);
  }

  @Test
  void remindersListsThePendingOneAndWithAllTheDispatchedOne() {
    JsonNode pending = cli(data, "reminders", "--json").json();
    assertThat(pending).hasSize(1);
    assertThat(pending.get(0).path("id").asText()).isEqualTo("schedule-2");
    assertThat(pending.get(0).path("due").asText()).isEqualTo("2026-12-01T10:00:00.000Z");
    assertThat(pending.get(0).path("state").asText()).isEqualTo("scheduled");
    assertThat(pending.get(0).path("prompt").asText()).isEqualTo("join the review");
    assertThat(pending.get(0).path("changedAt").isNull()).isTrue();

    JsonNode all = cli(data, "reminders", "--all", "--session", SESSION, "--json").json();
    assertThat(all).hasSize(2);
    assertThat(all.get(0).path("id").asText()).isEqualTo("schedule-1");
    assertThat(all.get(0).path("state").asText()).isEqualTo("dispatched");
    assertThat(all.get(0).path("due").asText()).isEqualTo("2026-12-01T09:00:30.000Z");
    assertThat(all.get(0).path("changedAt").asText()).isEqualTo("2026-12-01T09:00:30Z");

    Fixture.Run table = cli(data, "reminders", "--all");
    assertThat(table.out().lines().toList()).hasSize(3);
    assertThat(table.out().lines().skip(1).findFirst().orElseThrow()).contains("dispatched").contains("check the logs");
    assertThat(cli(data, "reminders", "--session", "nobody").exit()).isEqualTo(ExitCode.NOT_FOUND);
  }

  @Test
  void runsAwaitingShowsTheExactCall() {
    JsonNode runs = cli(data, "runs", "--awaiting", "--json").json();
    assertThat(runs).hasSize(1);
    JsonNode r = runs.get(0);
    assertThat(r.path("runId").asText()).isEqualTo(PARKED_RUN);
    assertThat(r.path("session").asText()).isEqualTo(SESSION);
    assertThat(r.path("reason").asText()).isEqualTo("toolPermission");
    assertThat(r.path("tool").asText()).isEqualTo("deploy");
    assertThat(r.path("arguments").toString()).isEqualTo("{\"env\":\"prod\"}");
    assertThat(r.path("deadline").isNull()).isTrue();
    assertThat(cli(data, "runs", "--awaiting").out()).contains("ops-1/turn-6").contains("{\"env\":\"prod\"}");
    assertThat(cli(data, "runs").exit()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void jobsShowsTheSettlementAndCheckFindsTheLogClean() {
    JsonNode jobs = cli(data, "jobs", "--json").json();
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).path("summary").asText()).isEqualTo("build nightly build [status: completed, exit code: 0]");
    assertThat(jobs.get(0).path("session").asText()).isEqualTo(SESSION);

    Fixture.Run check = cli(data, "check");
    assertThat(check.exit()).isEqualTo(ExitCode.OK);
    assertThat(check.out()).isEqualTo("ops-1: ok (" + stored().size() + " events)\n");
    assertThat(cli(data, "check", "--json").json().get(0).path("findings")).isEmpty();
  }

  @Test
  void checkReportsAViolationWithItsExitStatus() throws Exception {
    // a second turn/start without an end breaks the turn structure
    Path log = dir.resolve(SESSION).resolve("events.log");
    int seq = stored().size();
    String line = "[{\"seq\":" + seq + ",\"type\":\"turn/start\",\"time\":1796115900000,\"data\":{\"turn\":3}}]";
    java.util.zip.Checksum crc = new java.util.zip.CRC32C();
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    crc.update(bytes, 0, bytes.length);
    Files.writeString(log, String.format("%08x %s%n", crc.getValue(), line), StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    Fixture.Run check = cli(data, "check");
    assertThat(check.exit()).isEqualTo(ExitCode.VIOLATIONS);
    assertThat(check.out()).contains("ops-1: seq " + seq + ": invariant violated by");
  }

  @Test
  void tailPrintsTheLastEventsAndFollowsNewOnes() throws Exception {
    Fixture.Run tail = cli(data, "tail", SESSION, "-n", "3");
    assertThat(tail.exit()).isEqualTo(ExitCode.OK);
    List<String> lines = tail.out().lines().toList();
    assertThat(lines).hasSize(3);
    int last = stored().size() - 1;
    assertThat(lines.get(2)).startsWith(last + " 2026-12-01T09:00:30Z gate/commit ");
    JsonNode event = dev.horae.spi.session.Json.parse(cli(data, "tail", SESSION, "-n", "1", "--json").out());
    assertThat(event.path("seq").asInt()).isEqualTo(last);
    assertThat(event.path("type").asText()).isEqualTo("gate/commit");

    // --follow prints what another process appends, until interrupted
    // the output says when it holds the awaited line: the test waits on that, not on a clock
    java.util.concurrent.atomic.AtomicReference<String> wanted = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(1);
    ByteArrayOutputStream out = new ByteArrayOutputStream() {
      @Override
      public synchronized void write(byte[] b, int off, int len) {
        super.write(b, off, len);
        check();
      }

      @Override
      public synchronized void write(int b) {
        super.write(b);
        check();
      }

      synchronized void check() {
        String w = wanted.get();
        if (w != null && toString(StandardCharsets.UTF_8).contains(w)) {
          seen.countDown();
        }
      }
    };
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int[] exit = {-1};
    Thread follower = new Thread(() -> exit[0] = Horae.run(
        List.of(data, "tail", SESSION, "-n", "1", "--follow", "--interval-ms", "20"), print, print, Fixture.CLI_CLOCK));
    follower.start();
    Fixture.Run denied = cli(data, "deny", PARKED_RUN, "--reason", "not during the freeze", "--setup", Setups.Deploy.class.getName());
    assertThat(denied.exit()).isEqualTo(ExitCode.OK);
    int end = stored().size() - 1;
    synchronized (out) {
      wanted.set(end + " ");
      if (out.toString(StandardCharsets.UTF_8).contains(end + " ")) {
        seen.countDown();
      }
    }
    assertThat(seen.await(20, TimeUnit.SECONDS)).as("the follower printed event %s", end).isTrue();
    follower.interrupt();
    follower.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(exit[0]).isEqualTo(ExitCode.OK);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains(end + " 2026-12-01T09:05:00Z turn/end {\"turn\":6,\"reason\":\"completed\"}");
  }

  @Test
  void approveResumesTheRunAnotherRuntimeParkedAndTheToolRunsOnce() throws Exception {
    Fixture.Run approved = cli(data, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName());
    assertThat(approved.exit()).as(approved.err()).isEqualTo(ExitCode.OK);
    assertThat(approved.out()).isEqualTo("approved ops-1/turn-6: deploy {\"env\":\"prod\"} ran; the run is ended (naturalEnd)\n");
    assertThat(App.DEPLOYS.get()).isEqualTo(1);
    List<SessionEvent> log = stored();
    assertThat(log).filteredOn(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy"))
        .singleElement().satisfies(e -> assertThat(e.data().path("value").toString()).isEqualTo("{\"deployed\":\"prod\"}"));
    assertThat(log.get(log.size() - 1).data().toString()).isEqualTo("{\"turn\":6,\"reason\":\"completed\"}");
    assertThat(cli(data, "runs", "--awaiting", "--json").json()).isEmpty();
    assertThat(cli(data, "check").exit()).isEqualTo(ExitCode.OK);

    Fixture.Run again = cli(data, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName());
    assertThat(again.exit()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(again.err()).contains("run ops-1/turn-6 is not awaiting");
    assertThat(App.DEPLOYS.get()).isEqualTo(1);
  }

  @Test
  void approveWithJsonReportsTheDecision() {
    JsonNode json = cli(data, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName(), "--json").json();
    assertThat(json.path("decision").asText()).isEqualTo("approved");
    assertThat(json.path("runState").asText()).isEqualTo("ended");
    assertThat(json.path("endCause").asText()).isEqualTo("naturalEnd");
    assertThat(json.path("arguments").toString()).isEqualTo("{\"env\":\"prod\"}");
  }

  @Test
  void denyAnswersWithoutRunningTheTool() {
    Fixture.Run denied = cli(data, "deny", PARKED_RUN, "--reason", "change freeze", "--setup", Setups.Deploy.class.getName());
    assertThat(denied.exit()).as(denied.err()).isEqualTo(ExitCode.OK);
    assertThat(denied.out()).isEqualTo("denied ops-1/turn-6: deploy {\"env\":\"prod\"} did not run (change freeze); the run is ended (naturalEnd)\n");
    assertThat(App.DEPLOYS.get()).isZero();
    assertThat(stored()).filteredOn(e -> e.type().equals("tool/result") && e.data().path("tool").asText().equals("deploy"))
        .singleElement().satisfies(e -> assertThat(e.data().path("content").get(0).path("text").asText())
            .isEqualTo("Error: blocked: change freeze"));
    assertThat(cli(data, "deny", PARKED_RUN, "--setup", Setups.Deploy.class.getName()).exit()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void approveWithoutASetupRefusesAndWritesNothing() {
    int before = stored().size();
    Fixture.Run refused = cli(data, "approve", PARKED_RUN);
    assertThat(refused.exit()).isEqualTo(ExitCode.NEEDS_SETUP);
    assertThat(refused.err()).contains("needs the application's tools and model").contains("Nothing was written");
    assertThat(stored()).hasSize(before);
    assertThat(App.DEPLOYS.get()).isZero();
  }

  @Test
  void approveWithAnotherToolCatalogIsRejectedByTheGateAndWritesNothing() {
    int before = stored().size();
    Fixture.Run rejected = cli(data, "approve", PARKED_RUN, "--setup", Setups.WithoutDeploy.class.getName());
    assertThat(rejected.exit()).isEqualTo(ExitCode.REJECTED);
    assertThat(rejected.err()).contains("fingerprintMismatch").contains("nothing was written");
    assertThat(stored()).hasSize(before);
    assertThat(cli(data, "runs", "--awaiting", "--json").json()).hasSize(1);
  }

  @Test
  void approveWhileAnotherProcessHoldsTheSessionIsRefusedAndWritesNothing() throws Exception {
    try (HoraeRuntime holder = HoraeRuntime.builder().dataDir(dir).build()) {
      App.wire(holder, true);
      var unused = holder.openAgent(SESSION);
      int before = stored().size();
      Fixture.Run held = cli(data, "approve", PARKED_RUN, "--setup", Setups.Deploy.class.getName());
      assertThat(held.exit()).isEqualTo(ExitCode.HELD);
      assertThat(held.err()).contains("session ops-1 is held by another process").contains("is locked by another process")
          .contains("Nothing was written");
      assertThat(stored()).hasSize(before);
      // the read-only commands still work next to the holder
      assertThat(cli(data, "runs", "--awaiting", "--json").json()).hasSize(1);
    }
    assertThat(App.DEPLOYS.get()).isZero();
  }

  @Test
  void usageErrorsAndMissingThingsHaveTheirExitStatuses() {
    assertThat(cli("sessions").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "--jdbc-url", "jdbc:postgresql://localhost/x", "sessions").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data).exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "frobnicate").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "sessions", "--bogus").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "approve", PARKED_RUN, "--setup", "no.such.Setup").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "approve", PARKED_RUN, "--setup", String.class.getName()).exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli(data, "approve", "nobody/turn-1").exit()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(cli(data, "approve", "no-run-id").exit()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(cli(data, "tail", "nobody").exit()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(cli("--data-dir", dir.resolve("missing").toString(), "sessions").exit()).isEqualTo(ExitCode.UNREADABLE);
    Fixture.Run help = cli("--help");
    assertThat(help.exit()).isEqualTo(ExitCode.OK);
    assertThat(help.out()).startsWith("usage: horae");
  }

  @Test
  void aCorruptSessionIsReportedUnreadableAndTheOthersStillListed() throws Exception {
    Path log = dir.resolve(SESSION).resolve("events.log");
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    lines.set(0, "00000000" + lines.get(0).substring(8));
    Files.write(log, lines, StandardCharsets.UTF_8);
    Fixture.Run sessions = cli(data, "sessions");
    assertThat(sessions.exit()).isEqualTo(ExitCode.UNREADABLE);
    assertThat(sessions.err()).contains("ops-1: unreadable: commit log corrupt at line 1");
    assertThat(cli(data, "tail", SESSION).exit()).isEqualTo(ExitCode.UNREADABLE);
  }
}
