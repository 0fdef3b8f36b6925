package dev.horae.testkit.log;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.agent.RuntimeAgent;
import dev.horae.spi.Registration;
import dev.horae.spi.session.SessionEvent;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waiting for a session log to reach a state, for tests of a production runtime whose turns run on
 * its own driver threads: the wait wakes on every append instead of sleeping, and is bounded.
 */
public final class LogWaits {

  private static final int ROUNDS = 200;
  private static final long ROUND_MS = 100;

  private LogWaits() {}

  /**
   * Returns once the agent's log satisfies {@code done}: the predicate is tested now and after
   * every append to any session of the runtime, for at most 200 rounds of 100 ms without an append.
   *
   * @param horae the runtime
   * @param agent the agent whose log is tested
   * @param done the state to wait for
   * @throws InterruptedException when interrupted while waiting
   * @throws AssertionError when the log never gets there, naming its length
   */
  public static void until(HoraeRuntime horae, RuntimeAgent agent, Predicate<List<SessionEvent>> done)
      throws InterruptedException {
    for (int round = 0; round < ROUNDS; round++) {
      CountDownLatch appended = new CountDownLatch(1);
      Registration r = horae.sessions().onEvent((s, e) -> appended.countDown());
      try {
        if (done.test(agent.session().events())) {
          return;
        }
        var unused = appended.await(ROUND_MS, TimeUnit.MILLISECONDS);
      } finally {
        r.close();
      }
    }
    throw new AssertionError("the log never got there: " + agent.session().events().size() + " events");
  }
}
