package dev.horae.jobs.fakes;

import dev.horae.spi.Registration;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.agent.AgentStatus;
import dev.horae.spi.agent.InboxClaimListener;
import dev.horae.spi.agent.MaintenanceTask;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** A minimal agent for registry unit tests: an id, a scope, and a recorded inbox. */
public final class FakeAgent implements Agent {

  private final String id;
  private final FakeScope scope = new FakeScope();
  private final List<String> inbox = new ArrayList<>();
  private final List<String> withdrawn = new ArrayList<>();
  private boolean failDelivery;

  /**
   * Creates an agent.
   *
   * @param id the id
   */
  public FakeAgent(String id) {
    this.id = id;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Optional<String> parentId() {
    return Optional.empty();
  }

  @Override
  public Session session() {
    throw new UnsupportedOperationException("registry tests need no session");
  }

  @Override
  public Scope scope() {
    return scope;
  }

  /**
   * The concrete scope.
   *
   * @return the scope
   */
  public FakeScope fakeScope() {
    return scope;
  }

  @Override
  public AgentStatus status() {
    return AgentStatus.IDLE;
  }

  @Override
  public <T> CompletionStage<T> runMaintenance(MaintenanceTask<T> task) {
    throw new UnsupportedOperationException("not used");
  }

  @Override
  public CompletionStage<Void> whenIdle() {
    throw new UnsupportedOperationException("not used");
  }

  /** Makes every later followup and inject throw. */
  public synchronized void failDelivery() {
    failDelivery = true;
  }

  @Override
  public synchronized void followup(UserMessage message) {
    deliver(message);
  }

  @Override
  public synchronized void inject(UserMessage message) {
    deliver(message);
  }

  private void deliver(UserMessage message) {
    if (failDelivery) {
      throw new IllegalStateException("inbox closed");
    }
    inbox.add(message.id());
  }

  @Override
  public synchronized void steer(UserMessage message) {
    inbox.add(message.id());
  }

  @Override
  public synchronized boolean withdraw(String messageId) {
    withdrawn.add(messageId);
    return inbox.remove(messageId);
  }

  /**
   * Message ids withdrawn so far.
   *
   * @return the ids in call order
   */
  public synchronized List<String> withdrawn() {
    return List.copyOf(withdrawn);
  }

  @Override
  public Registration onInboxClaimed(InboxClaimListener listener) {
    return Registration.noop();
  }
}
