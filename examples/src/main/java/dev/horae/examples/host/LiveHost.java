package dev.horae.examples.host;

import dev.horae.spi.gate.ToolGates;
import dev.horae.spi.message.MessageSource;
import dev.horae.spi.message.UserMessage;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.plugin.WarningSink;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionStore;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.SystemTime;
import dev.horae.spi.time.Timers;
import dev.horae.store.FileSessionStore;
import dev.horae.testkit.agent.Model;
import dev.horae.testkit.agent.TestAgent;
import dev.horae.testkit.agent.TestAgents;
import dev.horae.testkit.agent.TurnLoop;
import dev.horae.runtime.invariant.LogInvariantService;
import dev.horae.runtime.plugin.ServiceMap;
import dev.horae.runtime.plugin.RuntimeScope;
import dev.horae.testkit.session.InMemorySessions;
import dev.horae.runtime.tool.RuntimeToolRegistry;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live {@link Host} over a data folder: sessions are durable in a {@link FileSessionStore}, time
 * is the system clock, turn drivers run on one daemon thread. Close it to release the store's
 * locks and stop the threads.
 */
public final class LiveHost implements Host, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LiveHost.class);

  private final FileSessionStore store;
  private final SystemTime time = new SystemTime();
  private final WarningSink warnings = (message, cause) -> LOG.warn(message, cause.orElse(null));
  private final ExecutorService drivers = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "horae-driver");
    t.setDaemon(true);
    return t;
  });
  private final InMemorySessions sessions;
  private final RuntimeToolRegistry tools = new RuntimeToolRegistry();
  private final ToolGates gates = ToolGates.create();
  private final TestAgents agents;
  private final LogInvariantService invariants;
  private final ServiceMap services = new ServiceMap();

  private LiveHost(Path dataDir) {
    store = FileSessionStore.open(dataDir);
    sessions = new InMemorySessions(SystemTime.wallClock(), warnings, store);
    sessions.onFlush(store);
    agents = new TestAgents(drivers, new TurnLoop(tools, gates, warnings), warnings);
    invariants = new LogInvariantService(sessions, true);
    // the persistence service's checkpoint: a turn's events become durable when the agent settles
    agents.onStatus((agent, status) -> {
      if (status == dev.horae.spi.agent.AgentStatus.IDLE) {
        var unused = sessions.flush(agent.session()).exceptionally(e -> {
          warnings.warn("flush of " + agent.id() + " failed", Optional.of(e));
          return false;
        });
      }
    });
    services.provide(SessionStore.class, store);
    services.provide(ToolGates.class, gates);
  }

  /**
   * Opens a host whose sessions live under {@code dataDir}.
   *
   * @param dataDir the data folder (created if missing)
   * @return the host
   */
  public static LiveHost open(Path dataDir) {
    return new LiveHost(dataDir);
  }

  /**
   * Resumes the session with that id if the store has it, else creates it; then makes a root agent
   * over it that answers with {@code model}.
   *
   * @param sessionId the session id
   * @param zone the session zone for a new session
   * @param model the model that answers its steps
   * @return the agent
   */
  public TestAgent openAgent(String sessionId, String zone, Model model) {
    Session session = store.ids().contains(sessionId)
        ? sessions.resume(sessionId)
        : sessions.create(new CreateOptions(Optional.of(sessionId), Optional.empty(), Optional.of(zone)));
    TestAgent agent = agents.create(session, Optional.empty(), new RuntimeScope(tool -> tools.registerFor(session.id(), tool)));
    return agent.useModel(model);
  }

  /**
   * Submits a user prompt over RPC with the client's zone.
   *
   * @param agent the agent
   * @param text the prompt
   * @param clientZone the client's zone (canonicalized at admission)
   */
  public void prompt(TestAgent agent, String text, String clientZone) {
    UserMessage m = messages().text(text, MessageSource.rpc("rpc-" + ids().next(), Optional.of(
        dev.horae.spi.message.PromptAdmission.admitClientZone(clientZone))));
    agent.prompt(m);
  }

  /**
   * The file store.
   *
   * @return the store
   */
  public FileSessionStore store() {
    return store;
  }

  @Override
  public InMemorySessions sessions() {
    return sessions;
  }

  @Override
  public TestAgents agents() {
    return agents;
  }

  @Override
  public RuntimeToolRegistry tools() {
    return tools;
  }

  @Override
  public LogInvariantService invariants() {
    return invariants;
  }

  @Override
  public InstantSource wallClock() {
    return SystemTime.wallClock();
  }

  @Override
  public Timers timers() {
    return time;
  }

  @Override
  public Supplier<ZoneId> processZone() {
    return ZoneId::systemDefault;
  }

  @Override
  public IdSource ids() {
    return IdSource.random();
  }

  @Override
  public WarningSink warnings() {
    return warnings;
  }

  @Override
  public <T> Optional<T> service(Class<T> type) {
    return services.find(type);
  }

  /**
   * Registers (or replaces) an optional host service.
   *
   * @param type the service type
   * @param service the service
   * @param <T> the service type
   */
  public <T> void provide(Class<T> type, T service) {
    services.provide(type, service);
  }

  @Override
  public ScopeHandle newPluginScope() {
    return new RuntimeScope(tools::register);
  }

  @Override
  public void close() {
    drivers.shutdownNow();
    time.close();
    store.close();
  }
}
