package dev.horae.spi.jobs;

import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Scope;
import java.util.List;

/**
 * Resolves an agent's scope chain for routing (jobs spec §2.14): the scopes from the farthest
 * ancestor (e.g. a preset's plugin scope) to the agent's exact scope, last. The host supplies it,
 * because only the host knows which preset composed an agent.
 */
@FunctionalInterface
public interface ScopeChain {

  /**
   * Lists the scopes of {@code agent}, farthest ancestor first, exact agent scope last.
   *
   * @param agent the agent
   * @return the chain; never empty for a live agent
   */
  List<Scope> of(Agent agent);

  /**
   * The chain of hosts without presets: only the agent's own scope.
   *
   * @return a resolver returning {@code [agent.scope()]}
   */
  static ScopeChain agentOnly() {
    return agent -> List.of(agent.scope());
  }
}
