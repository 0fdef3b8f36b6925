package dev.horae.testkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.Registration;
import dev.horae.spi.session.AppendOptions;
import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SurfaceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AppendTest extends SessionsFixture {

  private final Session session = sessions.create(CreateOptions.DEFAULT);

  @Test
  void seqsAreContiguousAndTimesComeFromTheWallClockEvenWhenItGoesBack() {
    SessionEvent a = session.append("a", json("{}"));
    clock.advance(Duration.ofSeconds(5));
    SessionEvent b = session.append("b", json("{}"));
    clock.setWall(START.minusSeconds(60));
    SessionEvent c = session.append("c", json("{}"));

    assertThat(List.of(a.seq(), b.seq(), c.seq())).containsExactly(0L, 1L, 2L);
    assertThat(a.time()).isEqualTo(START.toEpochMilli());
    assertThat(b.time()).isEqualTo(START.plusSeconds(5).toEpochMilli());
    assertThat(c.time()).isEqualTo(START.minusSeconds(60).toEpochMilli());
    assertThat(session.length()).isEqualTo(3);
    assertThat(session.events()).containsExactly(a, b, c);
  }

  @Test
  void thePayloadIsSnapshottedAtAppend() {
    ObjectNode data = (ObjectNode) json("{\"n\":1}");
    session.append("x", data);
    data.put("n", 2);
    data.put("extra", true);

    assertThat(session.events().get(0).data()).isEqualTo(json("{\"n\":1}"));
  }

  @Test
  void envelopeOptionsAreKept() {
    session.append("m", json("{}"), AppendOptions.VISIBLE);
    SessionEvent replacement = session.append(
        "summary", json("{}"), new AppendOptions(Optional.of(new SurfaceOp.Replace(0, 0)), List.of(0L)));

    assertThat(session.events().get(0).surfaceOp()).contains(SurfaceOp.APPEND);
    assertThat(replacement.surfaceOp()).contains(new SurfaceOp.Replace(0, 0));
    assertThat(replacement.sourceEventSeqs()).containsExactly(0L);
  }

  @Test
  void eventsIsAnImmutableSnapshotThatKeepsShadowedEvents() {
    session.append("m", json("{}"), AppendOptions.VISIBLE);
    session.append("m", json("{}"), AppendOptions.VISIBLE);
    List<SessionEvent> before = session.events();
    session.append("summary", json("{}"), new AppendOptions(Optional.of(new SurfaceOp.Replace(0, 1)), List.of(0L, 1L)));

    assertThat(before).hasSize(2);
    assertThatThrownBy(() -> before.add(before.get(0))).isInstanceOf(UnsupportedOperationException.class);
    assertThat(session.events()).extracting(SessionEvent::type).containsExactly("m", "m", "summary");
    assertThat(session.eventsFrom(1)).extracting(SessionEvent::seq).containsExactly(1L, 2L);
    assertThat(session.eventsFrom(10)).isEmpty();
    assertThatThrownBy(() -> session.eventsFrom(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void snapshotsNeverChangeWhenTheLogGrowsPastItsCapacity() {
    for (int i = 0; i < 10; i++) {
      session.append("early", json("{}"));
    }
    List<SessionEvent> atTen = session.events();
    List<SessionEvent> tail = session.eventsFrom(8);
    List<SessionEvent> copy = List.copyOf(atTen);

    for (int i = 0; i < 100; i++) {
      session.append("late", json("{}"));
    }

    assertThat(atTen).hasSize(10).isEqualTo(copy);
    assertThat(tail).extracting(SessionEvent::seq).containsExactly(8L, 9L);
    assertThat(session.events()).hasSize(110);
    assertThat(session.events().get(109).seq()).isEqualTo(109);
    assertThatThrownBy(() -> atTen.get(10)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> atTen.set(0, atTen.get(1))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aValidatorSeesHeaderLogAndTheStampedCandidate() {
    session.append("first", json("{}"));
    List<String> seen = new ArrayList<>();
    sessions.onPreAppend((header, log, candidate) ->
        seen.add(header.id() + " " + log.size() + " " + candidate.seq() + " " + candidate.type() + " " + candidate.time()));

    session.append("second", json("{}"));

    assertThat(seen).containsExactly(session.id() + " 1 1 second " + START.toEpochMilli());
  }

  @Test
  void aVetoLeavesTheLogUnchangedRunsNoObserverAndReachesTheAppender() {
    session.append("ok", json("{}"));
    List<SessionEvent> observed = new ArrayList<>();
    sessions.onEvent((s, e) -> observed.add(e));
    IllegalArgumentException veto = new IllegalArgumentException("no");
    sessions.onPreAppend((h, log, c) -> {
      if (c.type().equals("bad")) {
        throw veto;
      }
    });

    assertThatThrownBy(() -> session.append("bad", json("{}"))).isSameAs(veto);

    assertThat(session.events()).extracting(SessionEvent::type).containsExactly("ok");
    assertThat(observed).isEmpty();
    assertThat(session.append("good", json("{}")).seq()).isEqualTo(1);
    assertThat(observed).extracting(SessionEvent::type).containsExactly("good");
  }

  @Test
  void aClosedValidatorNoLongerVetoes() {
    Registration reg = sessions.onPreAppend((h, log, c) -> {
      throw new IllegalStateException("always");
    });
    reg.close();
    reg.close();

    assertThat(session.append("x", json("{}")).seq()).isZero();
  }

  @Test
  void observersRunInOrderAndAFailureIsContainedAndWarned() {
    List<String> calls = new ArrayList<>();
    RuntimeException boom = new RuntimeException("boom");
    sessions.onEvent((s, e) -> calls.add("first " + e.seq()));
    sessions.onEvent((s, e) -> {
      throw boom;
    });
    sessions.onEvent((s, e) -> calls.add("third " + e.seq()));

    SessionEvent committed = session.append("x", json("{}"));

    assertThat(committed.seq()).isZero();
    assertThat(session.events()).containsExactly(committed);
    assertThat(calls).containsExactly("first 0", "third 0");
    assertThat(warnings.causes()).containsExactly(boom);
  }

  @Test
  void aNestedAppendFromAValidatorIsRejected() {
    sessions.onPreAppend((h, log, c) -> {
      if (c.type().equals("outer")) {
        session.append("inner", json("{}"));
      }
    });

    assertThatThrownBy(() -> session.append("outer", json("{}")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nested append");
    assertThat(session.events()).isEmpty();
  }

  @Test
  void aNestedAppendFromAnObserverIsRejectedAndContained() {
    sessions.onEvent((s, e) -> {
      if (e.type().equals("outer")) {
        s.append("inner", json("{}"));
      }
    });

    session.append("outer", json("{}"));

    assertThat(session.events()).extracting(SessionEvent::type).containsExactly("outer");
    assertThat(warnings.causes()).singleElement().isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anObserverMayAppendToAnotherSession() {
    Session other = sessions.create(CreateOptions.DEFAULT);
    sessions.onEvent((s, e) -> {
      if (s == session) {
        other.append("mirror", e.data());
      }
    });

    session.append("x", json("{\"v\":1}"));

    assertThat(other.events()).extracting(SessionEvent::type).containsExactly("mirror");
    assertThat(warnings.size()).isZero();
  }

  @Test
  void appendAllValidatesEachCandidateAgainstTheEarlierOnesAndCommitsContiguously() {
    session.append("before", json("{}"));
    List<String> seen = new ArrayList<>();
    sessions.onPreAppend((h, log, c) -> seen.add(c.type() + "@" + c.seq() + " after " + log.get(log.size() - 1).type()));

    List<SessionEvent> committed = session.appendAll(List.of(
        Candidate.logOnly("a", json("{}")), Candidate.logOnly("b", json("{}"))));

    assertThat(seen).containsExactly("a@1 after before", "b@2 after a");
    assertThat(committed).extracting(SessionEvent::seq).containsExactly(1L, 2L);
    assertThat(committed.get(0).time()).isEqualTo(committed.get(1).time());
    assertThat(session.events()).extracting(SessionEvent::type).containsExactly("before", "a", "b");
  }

  @Test
  void appendAllIsAtomicWhenALaterCandidateIsVetoed() {
    List<SessionEvent> observed = new ArrayList<>();
    sessions.onEvent((s, e) -> observed.add(e));
    sessions.onPreAppend((h, log, c) -> {
      if (c.type().equals("b")) {
        throw new IllegalArgumentException("b refused");
      }
    });

    assertThatThrownBy(() -> session.appendAll(List.of(
        Candidate.logOnly("a", json("{}")), Candidate.logOnly("b", json("{}")))))
        .hasMessage("b refused");

    assertThat(session.events()).isEmpty();
    assertThat(observed).isEmpty();
    assertThat(session.appendAll(List.of())).isEmpty();
  }

  @Test
  void vetoNextVetoesOnlyTheNextAppendOfThatType() {
    List<SessionEvent> observed = new ArrayList<>();
    sessions.onEvent((s, e) -> observed.add(e));
    IllegalStateException injected = new IllegalStateException("injected");
    sessions.vetoNext("schedule/change", injected);

    session.append("other", json("{}"));
    assertThatThrownBy(() -> session.append("schedule/change", json("{}"))).isSameAs(injected);
    session.append("schedule/change", json("{}"));

    assertThat(session.events()).extracting(SessionEvent::type).containsExactly("other", "schedule/change");
    assertThat(observed).hasSize(2);
  }

  @Test
  void vetoNextAppliesToACandidateOfAnAtomicAppend() {
    sessions.vetoNext("b", new IllegalStateException("injected"));

    assertThatThrownBy(() -> session.appendAll(List.of(
        Candidate.logOnly("a", json("{}")), Candidate.logOnly("b", json("{}")))))
        .hasMessage("injected");
    assertThat(session.events()).isEmpty();
  }

  @Test
  void concurrentAppendsGetContiguousSeqs() throws InterruptedException {
    int threads = 8;
    int perThread = 250;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch done = new CountDownLatch(threads);
    try {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> {
          for (int i = 0; i < perThread; i++) {
            session.append("x", json("{}"));
          }
          done.countDown();
        });
      }
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      pool.shutdownNow();
    }
    List<SessionEvent> log = session.events();
    assertThat(log).hasSize(threads * perThread);
    for (int i = 0; i < log.size(); i++) {
      assertThat(log.get(i).seq()).isEqualTo(i);
    }
  }
}
