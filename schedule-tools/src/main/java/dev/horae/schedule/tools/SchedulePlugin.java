package dev.horae.schedule.tools;

import dev.horae.schedule.tools.internal.Adoption;
import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.session.SessionStore;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The Schedule plugin ({@code tool-schedule}, spec §11): gives every root agent created after it
 * loads the tools {@code schedule_create}, {@code schedule_list} and {@code schedule_delete}, and
 * a live owner that delivers due reminders as followup turns.
 *
 * <p>Requires the sessions, agents and tools seams and the session persistence service
 * ({@link SessionStore}); without persistence, installation fails with a
 * {@link CompositionException}. Agents that existed before installation and child agents are
 * never adopted.
 */
public final class SchedulePlugin implements Plugin {

  /** The component name. */
  public static final String NAME = "tool-schedule";

  private SchedulePlugin() {}

  /**
   * The plugin. Schedule has no settings (spec §11 gives it none), so unlike the plugins that do
   * there is no configuration to pass; install it once, before the agents it should adopt.
   *
   * @return the plugin
   */
  public static SchedulePlugin create() {
    return new SchedulePlugin();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ScheduleInstallation install(Host host) {
    if (host.service(SessionStore.class).isEmpty()) {
      throw new CompositionException(
          NAME + " requires the session persistence service; mount it before Schedule");
    }
    ScheduleInstallation installed = new ScheduleInstallation(host);
    installed.listen();
    return installed;
  }

  /** One installation: the adopted agents and the created-agent listener. */
  public static final class ScheduleInstallation implements Installation {
    private final Host host;
    private final IdentityHashMap<Agent, Adoption> adopted = new IdentityHashMap<>();
    private Registration listener = Registration.noop();
    private boolean closing;
    private Optional<CompletionStage<Void>> closed = Optional.empty();

    private ScheduleInstallation(Host host) {
      this.host = host;
    }

    void listen() {
      listener = host.agents().onCreated(this::onCreated);
    }

    private void onCreated(Agent agent) {
      synchronized (this) {
        if (closing || adopted.containsKey(agent) || !isRoot(agent)) {
          return;
        }
      }
      Adoption adoption = Adoption.adopt(host, agent, () -> forget(agent));
      synchronized (this) {
        adopted.put(agent, adoption);
      }
    }

    /** A disposed agent is dropped, so a long-lived host does not keep every agent it saw. */
    private synchronized void forget(Agent agent) {
      if (!closing) {
        adopted.remove(agent);
      }
    }

    private boolean isRoot(Agent agent) {
      for (Agent root : host.agents().roots()) {
        if (root == agent) {
          return true;
        }
      }
      return false;
    }

    /**
     * The state of an adopted agent's owner.
     *
     * @param agent an agent
     * @return the owner's state, or empty when the agent was not adopted
     */
    public synchronized Optional<OwnerState> ownerState(Agent agent) {
      return Optional.ofNullable(adopted.get(agent)).map(a -> a.owner().state());
    }

    /**
     * Stops adopting new agents and disposes every owner, awaiting all of them. Idempotent.
     *
     * @return a stage completing when every owner's in-flight work settled
     */
    @Override
    public synchronized CompletionStage<Void> close() {
      if (closed.isPresent()) {
        return closed.get();
      }
      closing = true;
      listener.close();
      List<CompletableFuture<Void>> disposals = new ArrayList<>();
      for (Adoption adoption : List.copyOf(adopted.values())) {
        disposals.add(adoption.dispose().toCompletableFuture().handle((v, e) -> null));
      }
      CompletionStage<Void> all = CompletableFuture.allOf(disposals.toArray(new CompletableFuture<?>[0]));
      closed = Optional.of(all);
      return all;
    }
  }
}
