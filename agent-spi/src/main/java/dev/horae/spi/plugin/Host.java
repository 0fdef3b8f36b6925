package dev.horae.spi.plugin;

import dev.horae.spi.agent.AgentRegistry;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.message.MessageFactory;
import dev.horae.spi.session.Sessions;
import dev.horae.spi.time.IdSource;
import dev.horae.spi.time.Timers;
import dev.horae.spi.tool.ToolRegistry;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The handle a plugin receives at install: every seam of the host contract.
 *
 * <p>Optional services (the job registry, the tool-gate chain, the persistence service) are found
 * with {@link #service(Class)}; a plugin that requires one and finds none throws
 * {@link CompositionException}.
 */
public interface Host {

  /**
   * The sessions service.
   *
   * @return sessions
   */
  Sessions sessions();

  /**
   * The agent registry.
   *
   * @return agents
   */
  AgentRegistry agents();

  /**
   * The tool registry.
   *
   * @return tools
   */
  ToolRegistry tools();

  /**
   * The invariant service.
   *
   * @return invariants
   */
  InvariantService invariants();

  /**
   * The injected wall clock.
   *
   * @return the wall clock
   */
  InstantSource wallClock();

  /**
   * The injected monotonic timers.
   *
   * @return timers
   */
  Timers timers();

  /**
   * The process zone supplier; read it once, at load.
   *
   * @return the supplier
   */
  Supplier<ZoneId> processZone();

  /**
   * The message id source.
   *
   * @return ids
   */
  IdSource ids();

  /**
   * A message factory over {@link #ids()}.
   *
   * @return the factory
   */
  default MessageFactory messages() {
    return new MessageFactory(ids());
  }

  /**
   * The warning sink.
   *
   * @return warnings
   */
  WarningSink warnings();

  /**
   * An optional host service, e.g. {@code service(SessionStore.class)} for the persistence service.
   *
   * @param type the service type
   * @param <T> the service type
   * @return the service, or empty
   */
  <T> Optional<T> service(Class<T> type);

  /**
   * A new plugin scope; dispose it with {@link ScopeHandle#dispose()}.
   *
   * @return the scope
   */
  ScopeHandle newPluginScope();
}
