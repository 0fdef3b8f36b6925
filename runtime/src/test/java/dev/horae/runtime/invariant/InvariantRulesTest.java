package dev.horae.runtime.invariant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantChecks;
import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The invariant service's three moments (host contract §10): at registration against every live
 * session, on every created session, and before every append, where a violation vetoes the append
 * and leaves the log unchanged; a closed registration checks nothing more, and a disabled service
 * never installs the checks.
 */
@Timeout(30)
class InvariantRulesTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-12-01T10:00:00Z"));

  private static CreateOptions named(String id) {
    return new CreateOptions(Optional.of(id), Optional.empty(), Optional.empty());
  }

  @Test
  void aViolationVetoesTheAppendOrTheCreateAndAClosedRegistrationChecksNothing() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      assertThat(horae.invariants().enabled()).isTrue();
      Registration r = horae.invariants().register("test-owner", fail -> new InvariantChecks() {
        @Override
        public void checkSession(SessionHeader header, List<SessionEvent> log) {
          if (header.id().startsWith("bad-")) {
            throw fail.fail("session " + header.id() + " is not allowed");
          }
        }

        @Override
        public void checkAppend(SessionHeader header, List<SessionEvent> log, SessionEvent candidate) {
          if (candidate.type().equals("test/forbidden")) {
            throw fail.fail("no forbidden events");
          }
        }
      });
      Session ok = horae.sessions().create(named("ok-1"));
      int before = ok.events().size();
      assertThatThrownBy(() -> ok.append("test/forbidden", Json.mapper().createObjectNode()))
          .isInstanceOfSatisfying(InvariantViolation.class, v -> {
            assertThat(v.code()).isEqualTo("INVARIANT");
            assertThat(v.getMessage()).isEqualTo("invariant violated by \"test-owner\": no forbidden events");
          });
      assertThat(ok.events()).hasSize(before);
      var unused = ok.append("test/allowed", Json.mapper().createObjectNode());
      assertThat(ok.events()).hasSize(before + 1);
      assertThatThrownBy(() -> horae.sessions().create(named("bad-1"))).isInstanceOf(InvariantViolation.class)
          .hasMessage("invariant violated by \"test-owner\": session bad-1 is not allowed");
      assertThat(horae.sessions().get("bad-1")).isEmpty();

      r.close();
      var unused2 = ok.append("test/forbidden", Json.mapper().createObjectNode());
      assertThat(horae.sessions().create(named("bad-2")).id()).isEqualTo("bad-2");
    }
  }

  @Test
  void registrationChecksEveryLiveSessionFirst() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      var unused = horae.sessions().create(named("bad-live"));
      assertThatThrownBy(() -> horae.invariants().register("strict", fail -> new InvariantChecks() {
        @Override
        public void checkSession(SessionHeader header, List<SessionEvent> log) {
          if (header.id().startsWith("bad-")) {
            throw fail.fail("not allowed");
          }
        }
      })).isInstanceOf(InvariantViolation.class).hasMessage("invariant violated by \"strict\": not allowed");
    }
  }

  @Test
  void aDisabledServiceNeverInstallsTheChecks() {
    try (HoraeRuntime horae = HoraeRuntime.builder().clock(CLOCK).build()) {
      LogInvariantService disabled = new LogInvariantService(horae.sessions(), false);
      AtomicBoolean installed = new AtomicBoolean();
      Registration r = disabled.register("off", fail -> {
        installed.set(true);
        return new InvariantChecks() {};
      });
      r.close();
      assertThat(disabled.enabled()).isFalse();
      assertThat(installed).isFalse();
    }
  }
}
