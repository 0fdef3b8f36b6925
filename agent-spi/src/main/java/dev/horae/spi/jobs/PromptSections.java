package dev.horae.spi.jobs;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Scope;
import java.util.List;
import java.util.Optional;

/**
 * The system-prompt section registry (host contract §11). A section registered in a scope appears
 * in every request of the agents whose scope chain reaches it, even when agent-level tool
 * filtering hides that plugin's tools. Found through {@code host.service(PromptSections.class)}.
 */
public interface PromptSections {

  /**
   * Registers a section.
   *
   * @param scope the scope whose agents see it; empty for every agent
   * @param section the section
   * @return a handle that removes it
   */
  Registration register(Optional<Scope> scope, PromptSection section);

  /**
   * The sections a request of {@code agent} includes, sorted by order then registration.
   *
   * @param agent the agent
   * @return the sections
   */
  List<PromptSection> sectionsFor(Agent agent);

  /**
   * A system prompt with the agent's sections appended: each section's text after the base (or
   * the previous section) and a blank line, in the order of {@link #sectionsFor}. The one rendering
   * every loop that builds a request uses, so a model sees the same prompt whichever loop asked.
   *
   * @param base the prompt the sections follow; may be empty
   * @param agent the agent
   * @return the prompt
   */
  default String appendTo(String base, Agent agent) {
    StringBuilder sb = new StringBuilder(base);
    for (PromptSection s : sectionsFor(agent)) {
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append(s.text());
    }
    return sb.toString();
  }
}
