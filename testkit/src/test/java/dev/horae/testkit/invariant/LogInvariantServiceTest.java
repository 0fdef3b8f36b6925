package dev.horae.testkit.invariant;

import dev.horae.runtime.invariant.LogInvariantService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantFail;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import dev.horae.testkit.log.CapturingWarnings;
import dev.horae.testkit.session.InMemorySessionStore;
import dev.horae.testkit.session.InMemorySessions;
import dev.horae.testkit.time.ManualTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LogInvariantServiceTest {

  private static final String OWNER = "@deepseek-ai/dsh-tool-schedule";

  private final InMemorySessionStore store = new InMemorySessionStore();
  private final InMemorySessions sessions =
      new InMemorySessions(new ManualTime(Instant.parse("2026-01-01T00:00:00Z")), new CapturingWarnings(), store);
  private final LogInvariantService service = new LogInvariantService(sessions, true);

  /** The companion under test: no event of type "forbidden" may ever be in a log. */
  private static InvariantChecks noForbidden(InvariantFail fail) {
    return new InvariantChecks() {
    @Override
    public void checkSession(SessionHeader header, List<SessionEvent> log) {
      for (SessionEvent e : log) {
        if (e.type().equals("forbidden")) {
          throw fail.fail("event " + e.seq() + " is forbidden");
        }
      }
    }

    @Override
    public void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
      if (candidate.type().equals("forbidden")) {
        throw fail.fail("candidate " + candidate.seq() + " is forbidden");
      }
    }
    };
  }

  @Test
  void failMakesAViolationWithCodeAndOwnerPrefix() {
    InvariantViolation[] made = new InvariantViolation[1];
    service.register(OWNER, fail -> {
      made[0] = fail.fail("broken rule");
      return new InvariantChecks() {};
    });

    assertThat(made[0].code()).isEqualTo("INVARIANT");
    assertThat(made[0].owner()).isEqualTo(OWNER);
    assertThat(made[0].detail()).isEqualTo("broken rule");
    assertThat(made[0]).hasMessage("invariant violated by \"@deepseek-ai/dsh-tool-schedule\": broken rule");
    assertThat(service.enabled()).isTrue();
  }

  @Test
  void registrationValidatesEveryLiveSessionAndFailsWithoutEffect() {
    Session good = sessions.create(CreateOptions.DEFAULT);
    good.append("fine", Json.parse("{}"));
    Session bad = sessions.create(CreateOptions.DEFAULT);
    bad.append("forbidden", Json.parse("{}"));

    assertThatThrownBy(() -> service.register(OWNER, LogInvariantServiceTest::noForbidden))
        .isInstanceOf(InvariantViolation.class)
        .hasMessage("invariant violated by \"" + OWNER + "\": event 0 is forbidden");

    // nothing was installed: later appends and creates are not checked
    good.append("forbidden", Json.parse("{}"));
    assertThat(good.length()).isEqualTo(2);
  }

  @Test
  void aViolatingCandidateIsVetoedAndTheLogIsUnchanged() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    s.append("fine", Json.parse("{}"));
    service.register(OWNER, LogInvariantServiceTest::noForbidden);

    assertThatThrownBy(() -> s.append("forbidden", Json.parse("{}")))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageEndingWith(": candidate 1 is forbidden");
    assertThat(s.events()).extracting(SessionEvent::type).containsExactly("fine");
  }

  @Test
  void createdForkedAndResumedSessionsAreChecked() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    AtomicInteger checked = new AtomicInteger();
    service.register(OWNER, fail -> new InvariantChecks() {
      @Override
      public void checkSession(SessionHeader header, List<SessionEvent> log) {
        checked.incrementAndGet();
        noForbidden(fail).checkSession(header, log);
      }
    });
    assertThat(checked.get()).isEqualTo(1);

    sessions.create(CreateOptions.DEFAULT);
    sessions.fork(parent, 0, false);
    store.put(new StoredSession(SessionHeader.root("stored", 1L, Optional.empty()),
        List.of(SessionEvent.of(0, "forbidden", 1L, Json.parse("{}")))));

    assertThatThrownBy(() -> sessions.resume("stored"))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageEndingWith(": event 0 is forbidden");
    assertThat(checked.get()).isEqualTo(4);
    assertThat(sessions.get("stored")).isEmpty();
  }

  @Test
  void anInvalidForkSeedMakesTheForkThrow() {
    Session parent = sessions.create(CreateOptions.DEFAULT);
    parent.append("forbidden", Json.parse("{}"));
    parent.append("fine", Json.parse("{}"));
    // the parent predates the companion, so validate only what comes after: fork a fresh runtime
    InMemorySessions other = new InMemorySessions(new ManualTime(Instant.EPOCH), new CapturingWarnings(), store);
    new LogInvariantService(other, true).register(OWNER, LogInvariantServiceTest::noForbidden);

    assertThatThrownBy(() -> other.fork(parent, 1, true)).isInstanceOf(InvariantViolation.class);
    assertThat(other.list()).isEmpty();
  }

  @Test
  void closingTheHandleRemovesEveryCheck() {
    Session s = sessions.create(CreateOptions.DEFAULT);
    Registration reg = service.register(OWNER, LogInvariantServiceTest::noForbidden);
    reg.close();
    reg.close();

    s.append("forbidden", Json.parse("{}"));
    assertThat(sessions.fork(s, 1, false).length()).isEqualTo(1);
  }

  @Test
  void aDisabledServiceNeverCallsTheInstallerAndReturnsAHarmlessHandle() {
    Session bad = sessions.create(CreateOptions.DEFAULT);
    bad.append("forbidden", Json.parse("{}"));
    LogInvariantService disabled = new LogInvariantService(sessions, false);
    AtomicInteger installs = new AtomicInteger();

    Registration reg = disabled.register(OWNER, fail -> {
      installs.incrementAndGet();
      return noForbidden(fail);
    });
    bad.append("forbidden", Json.parse("{}"));
    reg.close();
    reg.close();

    assertThat(installs.get()).isZero();
    assertThat(disabled.enabled()).isFalse();
    assertThat(bad.length()).isEqualTo(2);
  }
}
