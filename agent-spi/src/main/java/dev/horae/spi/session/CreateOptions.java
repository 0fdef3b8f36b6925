package dev.horae.spi.session;

import java.util.Optional;

/**
 * Options of {@link Sessions#create}.
 *
 * @param id preallocated session id; empty for a fresh one
 * @param cwd optional working directory
 * @param timeZone optional session zone; validated and canonicalized by the host with the
 *     library's zone resolver before it is stored
 */
public record CreateOptions(Optional<String> id, Optional<String> cwd, Optional<String> timeZone) {

  /** A fresh, headerless session (no zone). */
  public static final CreateOptions DEFAULT = new CreateOptions(Optional.empty(), Optional.empty(), Optional.empty());

  /**
   * Options with only a session zone.
   *
   * @param zone an IANA zone name
   * @return the options
   */
  public static CreateOptions withTimeZone(String zone) {
    return new CreateOptions(Optional.empty(), Optional.empty(), Optional.of(zone));
  }
}
