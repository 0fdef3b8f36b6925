package dev.horae.invariant;

import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.List;
import java.util.Optional;

/**
 * A companion that guards session logs. Its two pure checks are the whole policy; {@link #checks}
 * and {@link #register} only adapt them to the host's invariant service.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface LogCompanion {

  /**
   * The fixed owner name.
   *
   * @return the name, e.g. {@link Owners#SCHEDULE}
   */
  String owner();

  /**
   * Checks one candidate event against the log it would extend.
   *
   * @param header the session header
   * @param log the log before the candidate
   * @param candidate the candidate, {@code seq} and {@code time} assigned
   * @return the violation, or empty when the append may proceed
   */
  Optional<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate);

  /**
   * Replays a whole log and reports every event the companion would have vetoed, each judged
   * against the events before it as if the earlier vetoed events had not been written.
   *
   * @param header the session header
   * @param log the raw log, contiguous from seq 0
   * @return the violations in seq order; empty when the log is valid
   */
  List<LogFinding> checkLog(SessionHeader header, List<SessionEvent> log);

  /**
   * The exception a violation is reported with: by default {@code fail(message)}.
   *
   * @param finding the violation
   * @param fail the invariant service's fail function
   * @return the exception to throw
   */
  default RuntimeException toException(LogFinding finding, InvariantFail fail) {
    return fail.fail(finding.message());
  }

  /**
   * The checks to install: a whole-log check (registration, created, forked and resumed sessions)
   * that throws the first violation, and a candidate check that vetoes.
   *
   * @param fail the invariant service's fail function
   * @return the checks
   */
  default InvariantChecks checks(InvariantFail fail) {
    return new InvariantChecks() {
      @Override
      public void checkSession(SessionHeader header, List<SessionEvent> log) {
        List<LogFinding> found = checkLog(header, log);
        if (!found.isEmpty()) {
          throw toException(found.get(0), fail);
        }
      }

      @Override
      public void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
        Optional<LogFinding> found = LogCompanion.this.checkAppend(header, log, candidate);
        if (found.isPresent()) {
          throw toException(found.get(), fail);
        }
      }
    };
  }

  /**
   * Registers this companion with the host's invariant service.
   *
   * @param service the invariant service
   * @return the handle that removes it
   * @throws dev.horae.spi.invariant.InvariantViolation when a live session already breaks the
   *     invariant; nothing stays registered
   */
  default Registration register(InvariantService service) {
    return service.register(owner(), this::checks);
  }
}
