package dev.horae.conformance.scenario;

import dev.horae.gate.Plugin;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a scenario wants its host built (the case's {@code args.host}).
 *
 * @param start the initial wall clock (and the origin of monotonic time)
 * @param processZone the process zone
 * @param persistence whether a durable store is mounted (without one every flush returns false)
 * @param dispatch whether committed scheduled actions are performed at once (else a step performs
 *     them)
 * @param awaitDeadline how long a parked call's ticket stays answerable, if it expires at all
 * @param gatePlugins the gate plugins whose action kinds the host permits (gate specification §10.4)
 */
public record HostSetup(Instant start, ZoneId processZone, boolean persistence, boolean dispatch, Optional<Duration> awaitDeadline,
    List<Plugin> gatePlugins) {

  /** Checks presence. */
  public HostSetup {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(processZone, "processZone");
    Objects.requireNonNull(awaitDeadline, "awaitDeadline");
    gatePlugins = List.copyOf(gatePlugins);
  }

  /**
   * A setup that dispatches scheduled actions, never expires a ticket and permits no action kind.
   *
   * @param start the initial wall clock
   * @param processZone the process zone
   * @param persistence whether a durable store is mounted
   */
  public HostSetup(Instant start, ZoneId processZone, boolean persistence) {
    this(start, processZone, persistence, true, Optional.empty(), List.of());
  }
}
