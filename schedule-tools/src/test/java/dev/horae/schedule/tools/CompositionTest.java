package dev.horae.schedule.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.tool.ToolDefinition;
import dev.horae.testkit.TestHost;
import dev.horae.testkit.agent.TestAgent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec §11: composition, adoption, visibility, rollback and disposal. */
class CompositionTest {

  @Test
  void missingPersistenceIsACompositionError() {
    TestHost host = TestHost.builder().persistence(false).build();
    assertThatThrownBy(() -> SchedulePlugin.create().install(host))
        .isInstanceOf(CompositionException.class)
        .hasMessageContaining("persistence");
  }

  @Test
  void onlyRootsCreatedAfterLoadAreAdopted() {
    TestHost host = TestHost.builder().start(Fixture.START).build();
    TestAgent before = host.createAgent();
    Fixture f = new Fixture(host);
    TestAgent root = f.agent();
    TestAgent child = host.createChildAgent(root);
    assertThat(host.tools().visibleTo(root)).extracting(ToolDefinition::name)
        .containsExactly("schedule_create", "schedule_list", "schedule_delete");
    assertThat(host.tools().visibleTo(before)).isEmpty();
    assertThat(host.tools().visibleTo(child)).isEmpty();
    assertThat(f.installation.ownerState(before)).isEmpty();
    assertThat(f.installation.ownerState(child)).isEmpty();
    // every adopted root costs one preflight at start, even without Schedule events
    assertThat(f.flushes(root)).isEqualTo(1);
    assertThat(f.flushes(before)).isZero();
  }

  @Test
  void definitionsCarryTheSpecTextsAndCards() {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    List<ToolDefinition> tools = f.host.tools().visibleTo(a);
    ToolDefinition create = tools.get(0);
    assertThat(create.description()).startsWith("Create one reminder in the current session.")
        .endsWith("otherwise becomes overdue until the session is resumed.");
    assertThat(create.parameters().path("required").toString()).isEqualTo("[\"prompt\"]");
    assertThat(create.parameters().path("properties").path("after_seconds").path("type").asText()).isEqualTo("number");
    assertThat(create.presentCall().apply(Fixture.json("{\"prompt\":\"p\"}")).orElseThrow().toJson().toString())
        .isEqualTo("{\"card\":\"generic\",\"title\":\"Create reminder\",\"kind\":\"other\",\"rawInput\":\"p\"}");
    assertThat(tools.get(1).presentCall().apply(Fixture.json("{}")).orElseThrow().toJson().toString())
        .isEqualTo("{\"card\":\"generic\",\"title\":\"List reminders\",\"kind\":\"read\"}");
    assertThat(tools.get(2).presentCall().apply(Fixture.json("{\"id\":\"schedule-1\"}")).orElseThrow().kind())
        .isEqualTo("other");
    assertThat(tools.get(2).presentCall().apply(Fixture.json("{\"id\":5}"))).isEmpty();
    assertThat(tools.get(2).description()).endsWith("Unknown or already-finished ids return deleted false.");
  }

  @Test
  void registrationConflictRollsBackEarlierTools() {
    TestHost host = TestHost.builder().start(Fixture.START).build();
    // a plugin loaded earlier claims schedule_list in every new agent's scope
    host.agents().onCreated(a -> a.scope().registerTool(ToolDefinition.builder("schedule_list").build()));
    SchedulePlugin.create().install(host);
    TestAgent a = host.createAgent();
    assertThat(host.tools().visibleTo(a)).extracting(ToolDefinition::name).containsExactly("schedule_list");
    assertThat(host.warnings().messages()).anyMatch(m -> m.contains(a.id()));
  }

  @Test
  void agentDisposalRemovesToolsAndIsIdempotent() {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":60}");
    assertThat(f.owner(a).timerArmed()).isTrue();
    f.host.dispose(a).toCompletableFuture().join();
    f.host.dispose(a).toCompletableFuture().join();
    assertThat(f.host.tools().visibleTo(a)).isEmpty();
    // a disposed agent is forgotten by the installation
    assertThat(f.installation.ownerState(a)).isEmpty();
    assertThat(f.host.time().pendingTimers()).isZero();
    int changes = f.changes(a).size();
    f.host.advance(java.time.Duration.ofMinutes(5));
    assertThat(f.changes(a)).hasSize(changes);
  }

  @Test
  void pluginDisposalStopsAdoptingAndDisposesOwners() {
    Fixture f = new Fixture();
    TestAgent a = f.agent();
    f.create(a, "{\"prompt\":\"x\",\"after_seconds\":60}");
    f.installation.close().toCompletableFuture().join();
    assertThat(f.installation.close().toCompletableFuture()).isCompleted();
    assertThat(f.owner(a).stopping()).isTrue();
    assertThat(f.host.time().pendingTimers()).isZero();
    TestAgent later = f.agent();
    assertThat(f.host.tools().visibleTo(later)).isEmpty();
    f.host.advance(java.time.Duration.ofMinutes(2));
    assertThat(a.followups()).isEmpty();
  }
}
