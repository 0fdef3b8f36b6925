package dev.horae.invariant;

import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.zone.ClientZoneException;
import dev.horae.timecontext.ReadingInvariant;
import dev.horae.timecontext.ReadingViolation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Time-context's invariant companion (time-context spec §11), component {@code
 * time-context-invariant}, owner {@link Owners#TIME_CONTEXT}.
 *
 * <p>Every {@code user/message} whose source has {@code kind: "plugin"} and {@code plugin:
 * "time-context"} is checked against the log prefix before it with time-context's own rule
 * function {@link ReadingInvariant#check}: its turn and the next pre-step position, its elapsed
 * baseline, its event time and, in the three-line form, its client-zone line. Both text forms are
 * accepted in every session, whatever the current configuration. Readings in an inherited fork
 * prefix are validated like any other; other events are ignored [T102].
 *
 * <p>A failed client-zone derivation (check 6) is reported with the derivation's own message and
 * no invariant prefix, as a {@link ClientZoneException}; it still vetoes.
 */
public final class TimeContextCompanion implements LogCompanion {

  private static final TimeContextCompanion INSTANCE = new TimeContextCompanion();

  private TimeContextCompanion() {}

  /**
   * The companion.
   *
   * @return the shared stateless instance
   */
  public static TimeContextCompanion instance() {
    return INSTANCE;
  }

  @Override
  public String owner() {
    return Owners.TIME_CONTEXT;
  }

  @Override
  public Optional<LogFinding> checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    return ReadingInvariant.check(log, candidate).map(v -> finding(candidate, v));
  }

  @Override
  public List<LogFinding> checkLog(SessionHeader header, List<SessionEvent> log) {
    List<LogFinding> found = new ArrayList<>();
    for (int i = 0; i < log.size(); i++) {
      SessionEvent event = log.get(i);
      ReadingInvariant.check(log.subList(0, i), event).ifPresent(v -> found.add(finding(event, v)));
    }
    return List.copyOf(found);
  }

  @Override
  public RuntimeException toException(LogFinding finding, InvariantFail fail) {
    return finding.prefixed() ? fail.fail(finding.message()) : new ClientZoneException(finding.message());
  }

  private LogFinding finding(SessionEvent event, ReadingViolation v) {
    return new LogFinding(
        owner(), OptionalLong.of(event.seq()), v.message(), v.kind() == ReadingViolation.Kind.RULE);
  }
}
