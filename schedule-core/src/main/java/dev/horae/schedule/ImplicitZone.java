package dev.horae.schedule;

import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.zone.TimeContextAuthority;
import java.util.List;
import java.util.Optional;

/**
 * Schedule's implicit-zone decision (spec §6.8.3) over the time-context authority of the durable
 * log (spec §6.8.2), which {@link TimeContextAuthority} derives for Schedule and time-context
 * alike.
 *
 * <p>The zone is confirmed only when the authority exists, the session zone is known and the
 * turn's prompts carry exactly one client zone equal to the session zone's canonical name; every
 * other case asks the model for an explicit zone, reporting the zones it knows.
 */
public final class ImplicitZone {

  private ImplicitZone() {}

  /**
   * {@code implicitZone(events, header)}.
   *
   * @param events the session's raw log at the moment of the call, inherited prefix included
   * @param sessionTimeZone the header's {@code timeZone}, empty when headerless
   * @return the confirmed zone, or the zones to report
   */
  public static ZoneAuthority derive(List<SessionEvent> events, Optional<String> sessionTimeZone) {
    List<String> clients =
        TimeContextAuthority.of(events, sessionTimeZone)
            .map(TimeContextAuthority::clientZones)
            .orElse(List.of());
    return ZoneAuthority.reduced(sessionTimeZone, clients);
  }

  /**
   * Whether {@link #derive} over a suffix of the log gives the same answer as over the whole log
   * ({@link TimeContextAuthority#decidableWithin}). Lets a caller read only the tail of a long log.
   *
   * @param suffix the last events of the log, in order
   * @return true when the suffix suffices
   */
  public static boolean decidableWithin(List<SessionEvent> suffix) {
    return TimeContextAuthority.decidableWithin(suffix);
  }
}
