package dev.horae.runtime.invariant;

import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.Sessions;
import java.util.function.Function;

/**
 * Invariant companions over a sessions service (host contract §10). A companion's checks run:
 *
 * <ol>
 *   <li>at registration, against every live session; if one is invalid, registration throws that
 *       failure and has no effect;
 *   <li>as a session-created listener, so an invalid created, forked or resumed session makes that
 *       operation throw and is never registered;
 *   <li>as a pre-append validator, so a violating candidate is vetoed and the log stays unchanged.
 * </ol>
 *
 * <p>When disabled, {@link #register} neither calls the installer nor checks anything, and returns
 * a harmless handle. Thread-safe as far as the sessions service is.
 */
public final class LogInvariantService implements InvariantService {

  private final Sessions sessions;
  private final boolean enabled;

  /**
   * Creates the service.
   *
   * @param sessions the sessions whose logs the companions guard (usually a
   *     {@link dev.horae.store.LogSessions})
   * @param enabled false for the disabled mode
   */
  public LogInvariantService(Sessions sessions, boolean enabled) {
    this.sessions = sessions;
    this.enabled = enabled;
  }

  /**
   * Registers a companion.
   *
   * @param owner fixed owner name; prefixes every violation message
   * @param installer receives {@code fail(message)}, which makes
   *     {@code new InvariantViolation(owner, message)}, and returns the checks
   * @return a handle that removes both hooks; closing twice is harmless
   * @throws RuntimeException the check failure of an invalid live session (usually an
   *     {@link InvariantViolation}); nothing stays registered
   */
  @Override
  public Registration register(String owner, Function<InvariantFail, InvariantChecks> installer) {
    if (!enabled) {
      return Registration.noop();
    }
    InvariantChecks checks = installer.apply(message -> new InvariantViolation(owner, message));
    for (Session session : sessions.list()) {
      checks.checkSession(session.header(), session.events());
    }
    Registration onCreated = sessions.onSessionCreated(checks::checkSession);
    Registration onAppend = sessions.onPreAppend(checks::checkAppend);
    return () -> {
      onAppend.close();
      onCreated.close();
    };
  }

  @Override
  public boolean enabled() {
    return enabled;
  }
}
