package dev.horae.runtime.plugin;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The optional host services a host offers through {@code Host.service(Class)}: a job registry,
 * the tool-gate chain, the persistence service. Thread-safe.
 */
public final class ServiceMap {

  private final Map<Class<?>, Object> byType = new HashMap<>();

  /** Creates an empty registry. */
  public ServiceMap() {}

  /**
   * Offers (or replaces) a service.
   *
   * @param type the service type
   * @param service the service
   * @param <T> the service type
   */
  public synchronized <T> void provide(Class<T> type, T service) {
    byType.put(type, service);
  }

  /**
   * Finds a service.
   *
   * @param type the service type
   * @param <T> the service type
   * @return the service, or empty when none is offered
   */
  public synchronized <T> Optional<T> find(Class<T> type) {
    return Optional.ofNullable(byType.get(type)).map(type::cast);
  }
}
