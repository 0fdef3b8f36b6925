package dev.horae.examples.docs;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.Registration;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.SessionEvent;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for turns the tours do not start themselves (a reminder's follow-up, a job's notice): they
 * begin on the runtime's threads, so {@code whenIdle} alone could return before they open.
 */
final class TurnEnds {

  private static final long TIMEOUT_SECONDS = 30;

  private TurnEnds() {}

  /**
   * Blocks until the agent's log holds {@code turns} {@code turn/end} events and the agent is idle.
   *
   * @throws IllegalStateException when that does not happen within 30 s
   */
  static void await(HoraeRuntime horae, RuntimeAgent agent, int turns)
      throws InterruptedException, ExecutionException, TimeoutException {
    // seqs, not a count: an end seen by both the observer and the scan below is counted once
    Set<Long> ends = ConcurrentHashMap.newKeySet();
    CountDownLatch reached = new CountDownLatch(1);
    String id = agent.session().id();
    // the observer runs under the session's lock: it only records, it never reads the log
    Registration observing = horae.sessions().onEvent((session, event) -> {
      if (session.id().equals(id) && event.type().equals(EventTypes.TURN_END)) {
        ends.add(event.seq());
        if (ends.size() >= turns) {
          reached.countDown();
        }
      }
    });
    try {
      for (SessionEvent e : agent.session().events()) {
        if (e.type().equals(EventTypes.TURN_END)) {
          ends.add(e.seq());
        }
      }
      if (ends.size() < turns && !reached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException(id + " ended " + ends.size() + " of " + turns + " turns in "
            + TIMEOUT_SECONDS + " s");
      }
    } finally {
      observing.close();
    }
    agent.whenIdle().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }
}
