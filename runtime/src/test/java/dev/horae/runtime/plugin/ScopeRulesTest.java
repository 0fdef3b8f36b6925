package dev.horae.runtime.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.PromptSection;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.jobs.ScopeChain;
import dev.horae.spi.model.ModelRequest;
import dev.horae.spi.model.ModelResponse;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.ToolDefinition;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scopes and prompt sections (host contract §4 and the jobs seam's prompt-section registry): what a
 * scope owns is released last-first when it is disposed, disposal waits for every effect and is
 * idempotent, and a section is seen by exactly the agents whose scope chain reaches it, in order.
 */
@Timeout(30)
class ScopeRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static ToolDefinition tool(String name) {
    return ToolDefinition.builder(name).body((a, e) -> CompletableFuture.completedFuture(Json.parse("{}"))).build();
  }

  @Test
  void disposalReleasesWhatTheScopeOwnsLastFirstAndWaitsForEveryEffect() throws Exception {
    RuntimeScope scope = new RuntimeScope(t -> Registration.noop());
    List<String> closed = Collections.synchronizedList(new ArrayList<>());
    var unused1 = scope.own(() -> closed.add("first"));
    Registration released = scope.own(() -> closed.add("released early"));
    var unused2 = scope.own(() -> closed.add("third"));
    released.close();
    assertThat(closed).containsExactly("released early");

    CompletableFuture<Void> slowEffect = new CompletableFuture<>();
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    var unused3 = scope.onDispose(() -> {
      ran.add("slow");
      return slowEffect;
    });
    Registration withdrawn = scope.onDispose(() -> {
      ran.add("withdrawn");
      return CompletableFuture.completedFuture(null);
    });
    var unused4 = scope.onDispose(() -> {
      ran.add("throws");
      throw new IllegalStateException("broken effect");
    });
    var unused5 = scope.onDispose(() -> {
      ran.add("fails");
      return CompletableFuture.failedFuture(new IllegalStateException("failed effect"));
    });
    withdrawn.close();

    assertThat(scope.disposed()).isFalse();
    CompletableFuture<Void> disposal = scope.dispose().toCompletableFuture();
    assertThat(scope.disposed()).isTrue();
    assertThat(closed).containsExactly("released early", "third", "first");
    assertThat(ran).containsExactly("slow", "throws", "fails");
    // a broken or failed effect does not end the wait early, and never fails the disposal
    assertThat(disposal).isNotDone();
    CompletionStage<Void> again = scope.dispose();
    assertThat(again).isSameAs(disposal);
    slowEffect.complete(null);
    assertThat(disposal.get(5, TimeUnit.SECONDS)).isNull();
    assertThat(ran).hasSize(3);
    assertThat(closed).hasSize(3);
  }

  @Test
  void whatIsOwnedAfterDisposalIsReleasedAtOnce() {
    RuntimeScope scope = new RuntimeScope(t -> Registration.noop());
    assertThat(scope.scope()).isSameAs(scope);
    var unused = scope.dispose();
    List<String> closed = new ArrayList<>();
    Registration late = scope.own(() -> closed.add("late"));
    assertThat(closed).containsExactly("late");
    late.close();
    assertThat(closed).containsExactly("late");
  }

  @Test
  void anAgentScopesToolIsThatAgentsAndGoesWithTheScopeAPluginScopesIsEveryAgents() throws Exception {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent one = horae.openAgent("s-one");
      RuntimeAgent two = horae.openAgent("s-two");
      var unusedOwn = one.scope().registerTool(tool("own"));
      ScopeHandle plugin = horae.newPluginScope();
      var unusedShared = plugin.scope().registerTool(tool("shared"));
      assertThat(horae.tools().visibleTo(one)).extracting(ToolDefinition::name).containsExactly("shared", "own");
      assertThat(horae.tools().visibleTo(two)).extracting(ToolDefinition::name).containsExactly("shared");
      plugin.dispose().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(horae.tools().visibleTo(one)).extracting(ToolDefinition::name).containsExactly("own");
      assertThat(horae.tools().visibleTo(two)).isEmpty();
    }
  }

  @Test
  void sectionsAreOrderedByOrderThenRegistrationAndSeenWhereTheChainReachesTheirScope() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      RuntimeAgent one = horae.openAgent("s-one");
      RuntimeAgent two = horae.openAgent("s-two");
      Scope shared = horae.newPluginScope().scope();
      // one's chain reaches its own scope and the shared one; two's only its own
      RuntimePromptSections sections = new RuntimePromptSections(a -> a == one ? List.of(a.scope(), shared) : List.of(a.scope()));
      var unused1 = sections.register(Optional.empty(), new PromptSection("everyone-late", 20, "E20"));
      var unused2 = sections.register(Optional.of(shared), new PromptSection("shared", 10, "S10"));
      Registration early = sections.register(Optional.empty(), new PromptSection("everyone-early", 10, "E10"));
      var unused3 = sections.register(Optional.of(two.scope()), new PromptSection("two-only", 5, "T5"));
      var unused4 = sections.register(Optional.of(one.scope()), new PromptSection("one-only", 30, "O30"));

      assertThat(sections.sectionsFor(one)).extracting(PromptSection::text).containsExactly("S10", "E10", "E20", "O30");
      assertThat(sections.sectionsFor(two)).extracting(PromptSection::text).containsExactly("T5", "E10", "E20");
      assertThat(sections.appendTo("base", two)).isEqualTo("base\n\nT5\n\nE10\n\nE20");

      early.close();
      // a second close must not remove another section
      early.close();
      assertThat(sections.sectionsFor(two)).extracting(PromptSection::text).containsExactly("T5", "E20");
    }
  }

  @Test
  void theRuntimesSectionsReachEveryRequestThroughTheAgentsOwnScopeOrAChainProvidedLater() throws Exception {
    List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).model(r -> {
      requests.add(r);
      return CompletableFuture.completedFuture(ModelResponse.text("ok"));
    }).build()) {
      PromptSections sections = horae.service(PromptSections.class).orElseThrow();
      RuntimeAgent agent = horae.openAgent("s-sections").systemPrompt("You are terse.");
      Scope plugin = horae.newPluginScope().scope();
      var unused1 = sections.register(Optional.of(agent.scope()), new PromptSection("mine", 1, "Agent section."));
      var unused2 = sections.register(Optional.of(plugin), new PromptSection("plugin", 2, "Plugin section."));
      horae.prompt(agent, "hello");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      // without a host-provided chain an agent's chain is its own scope only
      assertThat(requests.get(0).systemPrompt()).isEqualTo("You are terse.\n\nAgent section.");

      ScopeChain chain = a -> List.of(a.scope(), plugin);
      horae.provide(ScopeChain.class, chain);
      horae.prompt(agent, "again");
      agent.whenIdle().toCompletableFuture().get(20, TimeUnit.SECONDS);
      assertThat(requests.get(1).systemPrompt()).isEqualTo("You are terse.\n\nAgent section.\n\nPlugin section.");
    }
  }
}
