package dev.horae.spi.message;

import dev.horae.spi.zone.ZoneResolver;
import java.util.Optional;

/**
 * What a host does before admitting a prompt that carries a client zone, or before storing a
 * session zone (host contract §3.3, §7.3): shape check, resolution with the library's zone
 * resolver, canonicalization.
 */
public final class PromptAdmission {

  /** The stable error code of a rejected zone. */
  public static final String INVALID_TIME_ZONE = "invalid-time-zone";

  /** The stable message of a rejected client zone. */
  public static final String INVALID_CLIENT_ZONE_MESSAGE =
      "clientTimeZone must be UTC or a valid IANA Area/Location name";

  private PromptAdmission() {}

  /**
   * Validates and canonicalizes a client zone.
   *
   * @param raw the zone the client reported
   * @return the canonical zone name
   * @throws PromptRejectedException with code {@code invalid-time-zone} and {@code raw} as detail
   */
  public static String admitClientZone(String raw) {
    return canonical(raw).orElseThrow(
        () -> new PromptRejectedException(INVALID_TIME_ZONE, INVALID_CLIENT_ZONE_MESSAGE, raw));
  }

  /**
   * Validates and canonicalizes a session zone fixed at creation.
   *
   * @param raw the zone the host received
   * @return the canonical zone name
   * @throws PromptRejectedException with code {@code invalid-time-zone} and {@code raw} as detail
   */
  public static String admitSessionZone(String raw) {
    return canonical(raw).orElseThrow(() -> new PromptRejectedException(
        INVALID_TIME_ZONE, "timeZone must be UTC or a valid IANA Area/Location name", raw));
  }

  private static Optional<String> canonical(String raw) {
    if (raw.isEmpty() || !raw.strip().equals(raw) || !ZoneResolver.hasAcceptedShape(raw)) {
      return Optional.empty();
    }
    return ZoneResolver.standard().canonicalName(raw);
  }
}
