package dev.horae.invariant.junit;

import dev.horae.invariant.Companions;
import dev.horae.invariant.JobsCompanion;
import dev.horae.invariant.LogCompanion;
import dev.horae.invariant.LogFinding;
import dev.horae.invariant.Owners;
import dev.horae.invariant.SessionLogCheck;
import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.Sessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that watches hosts during a test and fails the test when anything it did
 * would break an invariant: a candidate append, a created, forked or resumed session, a session
 * already live when the watch began, or a job settlement.
 *
 * <p>The guard only records: it never vetoes, so the test runs exactly as it would without it (the
 * host's own invariant service, if plugins registered companions there, still vetoes). After each
 * test it removes its hooks and, if it recorded anything, fails with every violation, one per line:
 * {@code session <id>: seq <n>: invariant violated by "<owner>": <message>}.
 *
 * <p>Register it as an instance field with {@code @RegisterExtension} and pass each host to
 * {@link #watch(Host)}. A test that appends a violating event on purpose (to test a veto) takes the
 * expected violations with {@link #drain()}. Thread-safe: hooks may run on any host thread.
 */
public final class InvariantGuard implements AfterEachCallback {

  private final List<String> violations = new ArrayList<>();
  private final List<Registration> hooks = new CopyOnWriteArrayList<>();

  /** Creates a guard with nothing watched. */
  public InvariantGuard() {}

  /**
   * Watches a host's sessions and, when it offers one, its job registry.
   *
   * @param host the host
   * @param <H> the host type
   * @return the same host, for chaining
   */
  public <H extends Host> H watch(H host) {
    watch(host.sessions());
    Optional<JobService> jobs = host.service(JobService.class);
    jobs.ifPresent(service -> hooks.add(service.onJobDone(Optional.empty(),
        JobsCompanion.settlementListener(message -> new InvariantViolation(Owners.JOBS, message),
            v -> add(String.valueOf(v.getMessage()))))));
    return host;
  }

  /**
   * Watches a sessions service: checks every live session now, then every created session and
   * every candidate append.
   *
   * @param sessions the sessions service
   * @return the same service
   */
  public Sessions watch(Sessions sessions) {
    for (Session session : sessions.list()) {
      checkLog(session.header(), session.events());
    }
    // the companions' own installed checks, so each append costs what it costs under a host
    List<InvariantChecks> checks = new ArrayList<>();
    for (LogCompanion companion : Companions.logCompanions()) {
      checks.add(companion.checks(message -> new InvariantViolation(companion.owner(), message)));
    }
    hooks.add(sessions.onSessionCreated(this::checkLog));
    hooks.add(sessions.onPreAppend((header, log, candidate) -> checkAppend(checks, header, log, candidate)));
    return sessions;
  }

  private void checkLog(SessionHeader header, List<SessionEvent> log) {
    try {
      record(header, SessionLogCheck.check(header, log));
    } catch (RuntimeException e) {
      add("session " + header.id() + ": invariant check failed: " + e);
    }
  }

  private void checkAppend(
      List<InvariantChecks> checks, SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
    for (InvariantChecks c : checks) {
      try {
        c.checkAppend(header, log, candidate);
      } catch (RuntimeException e) {
        // a veto the guarded host would have raised: recorded, never thrown
        add("session " + header.id() + ": seq " + candidate.seq() + ": " + e.getMessage());
      }
    }
  }

  private void record(SessionHeader header, List<LogFinding> found) {
    for (LogFinding f : found) {
      add("session " + header.id() + ": " + f.reportLine());
    }
  }

  /**
   * The violations recorded so far.
   *
   * @return a snapshot, in the order they were seen
   */
  public List<String> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  private void add(String violation) {
    synchronized (violations) {
      violations.add(violation);
    }
  }

  /**
   * Takes the violations recorded so far, so a test that provoked them on purpose can assert them
   * and still pass.
   *
   * @return the violations; the guard's record is empty afterwards
   */
  public List<String> drain() {
    synchronized (violations) {
      List<String> taken = List.copyOf(violations);
      violations.clear();
      return taken;
    }
  }

  /**
   * Fails when anything was recorded.
   *
   * @throws AssertionError listing every violation
   */
  public void verify() {
    List<String> found = drain();
    if (!found.isEmpty()) {
      throw new AssertionError(
          found.size() + " invariant violation(s) during the test:\n  " + String.join("\n  ", found));
    }
  }

  /**
   * Removes the guard's hooks, then fails the test if anything was recorded.
   *
   * @param context the test's context
   * @throws AssertionError listing every violation
   */
  @Override
  public void afterEach(ExtensionContext context) {
    List<Registration> taken = List.copyOf(hooks);
    hooks.clear();
    taken.forEach(Registration::close);
    verify();
  }
}
