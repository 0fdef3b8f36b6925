package dev.horae.invariant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.EndCause;
import dev.horae.gate.runtime.RunDisposition;
import dev.horae.gate.runtime.ThreadCommit;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.testkit.TestHost;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The installed Schedule and gate checks keep replay state between appends; on random streams of
 * valid and invalid candidates (including forks, whose seeds shift the fold's start) their verdict
 * must equal the stateless reference check over the whole log every time, also when a later
 * validator vetoes a candidate the companions had accepted.
 */
class CachedChecksTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void installedChecksAgreeWithTheReferenceOnRandomLogs(long seed) {
    Random random = new Random(seed);
    TestHost host = TestHost.builder().build();
    Companions.registerLogCompanions(host.invariants());
    // a validator after the companions that sometimes vetoes what they accepted: their cached
    // state must not keep a candidate that never landed
    boolean[] otherVetoes = {false};
    host.sessions().onPreAppend((header, log, candidate) -> {
      if (otherVetoes[0]) {
        throw new IllegalStateException("other veto");
      }
    });
    Session session = host.sessions().create(CreateOptions.DEFAULT);
    long gateSequence = 0;
    int vetoes = 0;
    for (int i = 0; i < 400; i++) {
      if (i == 200) {
        // continue in a fork: the owned suffix starts after the seed, gate facts carry over
        otherVetoes[0] = false;
        session = host.sessions().fork(session, session.length(), random.nextBoolean());
      }
      String type;
      JsonNode data;
      int pick = random.nextInt(10);
      if (pick < 5) {
        type = EventTypes.SCHEDULE_CHANGE;
        String id = "s" + random.nextInt(6);
        data = switch (random.nextInt(3)) {
          case 0 -> Changes.create(id);
          case 1 -> Changes.delete(id);
          default -> Changes.dispatch(id);
        };
      } else if (pick < 8) {
        type = GateCompanion.COMMIT_EVENT;
        long sequence = gateSequence + 1 + (random.nextInt(8) == 0 ? 1 : 0);
        String run = "run-" + random.nextInt(4);
        RunDisposition d = random.nextInt(4) == 0
            ? new RunDisposition.Ended(run, EndCause.naturalEnd())
            : new RunDisposition.Running(run);
        ObjectNode payload = Json.mapper().createObjectNode();
        payload.put("sequence", sequence);
        payload.set("commit", CommitCodec.encodeCommit(new ThreadCommit(session.id(), d, List.of(), List.of(), List.of())));
        data = payload;
      } else {
        type = "host/other";
        data = Json.parse("{}");
      }
      List<SessionEvent> before = session.events();
      SessionEvent candidate = SessionEvent.of(before.size(), type, 0, data);
      Optional<String> reference = SessionLogCheck.checkAppend(session.header(), before, candidate).stream()
          .map(LogFinding::text)
          .findFirst();
      otherVetoes[0] = random.nextInt(6) == 0;
      Optional<String> expected = reference.isPresent() || !otherVetoes[0] ? reference : Optional.of("other veto");
      Optional<String> installed;
      try {
        session.append(type, data);
        installed = Optional.empty();
        if (type.equals(GateCompanion.COMMIT_EVENT)) {
          gateSequence = data.get("sequence").longValue();
        }
      } catch (RuntimeException e) {
        installed = Optional.of(String.valueOf(e.getMessage()));
        vetoes++;
      }
      assertThat(installed).as("seed %d step %d: %s %s", seed, i, type, data).isEqualTo(expected);
      assertThat(session.length()).isEqualTo(before.size() + (installed.isEmpty() ? 1 : 0));
    }
    // the streams exercise both outcomes
    assertThat(vetoes).isBetween(20, 380);
    otherVetoes[0] = false;
    assertThat(SessionLogCheck.check(session.header(), session.events())).isEmpty();
  }
}
