package dev.horae.schedule.tools.internal;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * Schedule installed on one root agent (spec §11): its three tools, its idle-status listener and
 * its live owner, all registered through the agent's own scope.
 */
public final class Adoption {

  private final LiveOwner owner;
  private final List<Registration> registrations = new ArrayList<>();
  private @Nullable CompletionStage<Void> disposal;

  private Adoption(LiveOwner owner) {
    this.owner = owner;
  }

  /**
   * Adopts a root agent: registers the tools in catalog order (rolling back on failure), the
   * status listener, the disposal effect, and starts the owner.
   *
   * @param host the host seams
   * @param agent the new root agent
   * @param onAgentDisposed run when the agent's scope disposes the adoption, so the plugin can
   *     forget the agent
   * @return the adoption
   * @throws RuntimeException the registration failure, after rollback
   */
  public static Adoption adopt(Host host, Agent agent, Runnable onAgentDisposed) {
    FoldCache cache = new FoldCache(agent.session());
    TransactionQueue queue = new TransactionQueue();
    LiveOwner owner = new LiveOwner(host, agent, cache, queue);
    Pipelines pipelines = new Pipelines(host, agent, cache, queue, owner);
    Adoption adoption = new Adoption(owner);
    List<ToolDefinition> tools =
        ToolCatalog.definitions(pipelines::create, pipelines::list, pipelines::delete);
    try {
      for (ToolDefinition tool : tools) {
        adoption.registrations.add(agent.scope().registerTool(tool));
      }
    } catch (RuntimeException e) {
      adoption.closeRegistrations();
      throw e;
    }
    Registration status =
        host.agents()
            .onStatus(
                (a, s) -> {
                  if (a == agent && s == AgentStatus.IDLE && cache.hasAnyChange()) {
                    owner.requestDrive();
                  }
                });
    adoption.registrations.add(agent.scope().own(status));
    var unused =
        agent
            .scope()
            .onDispose(
                () -> {
                  onAgentDisposed.run();
                  return adoption.dispose();
                });
    owner.requestDrive();
    return adoption;
  }

  /**
   * Removes the listener and the tools and awaits the owner's disposal. Idempotent.
   *
   * @return a stage completing when the owner's in-flight work settled
   */
  public synchronized CompletionStage<Void> dispose() {
    if (disposal == null) {
      closeRegistrations();
      disposal = owner.dispose();
    }
    CompletionStage<Void> d = disposal;
    return d == null ? CompletableFuture.completedFuture(null) : d;
  }

  /**
   * The agent's owner.
   *
   * @return the owner
   */
  public LiveOwner owner() {
    return owner;
  }

  private void closeRegistrations() {
    for (int i = registrations.size() - 1; i >= 0; i--) {
      try {
        registrations.get(i).close();
      } catch (RuntimeException ignored) {
        // closing is best effort during rollback and teardown; the scope closes them again
      }
    }
    registrations.clear();
  }
}
