package dev.horae.conformance.scenario;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * How a scenario wants its host built (the case's {@code args.host}).
 *
 * @param start the initial wall clock (and the origin of monotonic time)
 * @param processZone the process zone
 * @param persistence whether a durable store is mounted (without one every flush returns false)
 */
public record HostSetup(Instant start, ZoneId processZone, boolean persistence) {

  /** Checks presence. */
  public HostSetup {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(processZone, "processZone");
  }
}
