package dev.horae.spi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Scope;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link PromptSections#appendTo}: the one rendering of a system prompt with its sections. */
@Timeout(10)
class PromptSectionsTest {

  // the sections do not depend on the agent here; any use of it fails the test
  private static final Agent AGENT = (Agent) java.lang.reflect.Proxy.newProxyInstance(Agent.class.getClassLoader(),
      new Class<?>[] {Agent.class}, (proxy, method, args) -> {
        throw new AssertionError("the agent was used: " + method.getName());
      });

  private static PromptSections of(PromptSection... sections) {
    return new PromptSections() {
      @Override
      public Registration register(Optional<Scope> scope, PromptSection section) {
        throw new UnsupportedOperationException("not registered in this test");
      }

      @Override
      public List<PromptSection> sectionsFor(Agent agent) {
        return List.of(sections);
      }
    };
  }

  @Test
  void sectionsFollowTheBaseInTheirOrderEachAfterABlankLine() {
    PromptSections two = of(new PromptSection("a", 1, "Jobs: use job_list."), new PromptSection("b", 2, "Be brief."));
    assertThat(two.appendTo("You are helpful.", AGENT)).isEqualTo("You are helpful.\n\nJobs: use job_list.\n\nBe brief.");
    assertThat(two.appendTo("", AGENT)).isEqualTo("Jobs: use job_list.\n\nBe brief.");
    assertThat(of().appendTo("You are helpful.", AGENT)).isEqualTo("You are helpful.");
  }
}
