package dev.horae.schedule;

import dev.horae.spi.zone.ZoneResolver;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What the current step's time-context authority decides for a local {@code at} without
 * {@code time_zone} (spec §6.8): either a confirmed implicit zone, or the zones to report in the
 * {@code timezone_confirmation_required} value.
 *
 * <p>Hosts derive it from the durable log with {@link ImplicitZone#derive}; tests and the
 * conformance runner may build the reduced form with {@link #reduced}.
 */
public sealed interface ZoneAuthority permits ZoneAuthority.Confirmed, ZoneAuthority.Unconfirmed {

  /**
   * The value a caller receives when the implicit zone is not confirmed, or the confirmed zone.
   *
   * @return the zone, or the confirmation error
   */
  ScheduleResult<String> decision();

  /**
   * The authority confirms {@code zone} as the implicit zone.
   *
   * @param zone the client zone that equals the session zone
   */
  record Confirmed(String zone) implements ZoneAuthority {
    /**
     * Checks presence.
     *
     * @param zone as described on the record
     */
    public Confirmed {
      Objects.requireNonNull(zone, "zone");
    }

    @Override
    public ScheduleResult<String> decision() {
      return ScheduleResult.ok(zone);
    }
  }

  /**
   * No implicit zone; the zones to report.
   *
   * @param sessionTimeZone the header zone as stored, or {@code unavailable}
   * @param clientTimeZones the client zones, de-duplicated and sorted by UTF-16 code unit
   */
  record Unconfirmed(String sessionTimeZone, List<String> clientTimeZones) implements ZoneAuthority {
    /**
     * Freezes the list.
     *
     * @param sessionTimeZone as described on the record
     * @param clientTimeZones as described on the record
     */
    public Unconfirmed {
      Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
      clientTimeZones = List.copyOf(clientTimeZones);
    }

    /**
     * The error value.
     *
     * @return {@code timezone_confirmation_required} with these zones
     */
    public ScheduleError.ZoneConfirmation error() {
      return new ScheduleError.ZoneConfirmation(sessionTimeZone, clientTimeZones);
    }

    @Override
    public ScheduleResult<String> decision() {
      return ScheduleResult.err(error());
    }
  }

  /**
   * No authority at all: headerless, no client zones.
   *
   * @return the unconfirmed authority {@code unavailable, []}
   */
  static ZoneAuthority none() {
    return new Unconfirmed(ScheduleError.UNAVAILABLE_ZONE, List.of());
  }

  /**
   * The reduced authority of the conformance catalogue ({@code zoneAuthority}
   * {@code {sessionTimeZone, clientTimeZones}}): confirmed when the session zone is present and
   * the de-duplicated client zones are exactly one zone whose canonical name equals the session
   * zone's canonical name; that client zone is then the implicit zone.
   *
   * @param sessionTimeZone the session zone, empty when headerless
   * @param clientTimeZones the client zones reported for the step
   * @return the decision
   */
  static ZoneAuthority reduced(Optional<String> sessionTimeZone, List<String> clientTimeZones) {
    List<String> clients = List.copyOf(new TreeSet<>(clientTimeZones));
    if (sessionTimeZone.isPresent() && clients.size() == 1) {
      ZoneResolver resolver = ZoneResolver.standard();
      Optional<String> session = resolver.canonicalName(sessionTimeZone.get());
      if (session.isPresent() && session.equals(resolver.canonicalName(clients.get(0)))) {
        return new Confirmed(clients.get(0));
      }
    }
    return new Unconfirmed(sessionTimeZone.orElse(ScheduleError.UNAVAILABLE_ZONE), clients);
  }
}
