package dev.horae.invariant;

import dev.horae.spi.Registration;
import dev.horae.spi.invariant.InvariantService;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.plugin.Host;
import java.util.ArrayList;
import java.util.List;

/** Registers every companion on a host. */
public final class Companions {

  private Companions() {}

  /**
   * The companions that guard session logs, in the order they are registered and reported.
   *
   * @return Schedule, time-context, gate and the turn structure
   */
  public static List<LogCompanion> logCompanions() {
    return List.of(ScheduleCompanion.instance(), TimeContextCompanion.instance(), GateCompanion.instance(),
        TurnStructureCompanion.instance());
  }

  /**
   * Registers the log companions with an invariant service.
   *
   * @param service the host's invariant service
   * @return a handle that removes all of them
   * @throws dev.horae.spi.invariant.InvariantViolation when a live session breaks an invariant;
   *     the companions registered before it are removed again
   */
  public static Registration registerLogCompanions(InvariantService service) {
    List<Registration> done = new ArrayList<>();
    try {
      for (LogCompanion companion : logCompanions()) {
        done.add(companion.register(service));
      }
    } catch (RuntimeException e) {
      closeAll(done);
      throw e;
    }
    return () -> closeAll(done);
  }

  /**
   * Registers every companion on a host: the log companions, and the jobs companion when the host
   * offers a {@link JobService}.
   *
   * @param host the host
   * @return a handle that removes all of them
   * @throws dev.horae.spi.invariant.InvariantViolation when a live session or a current job record
   *     breaks an invariant; nothing stays registered
   */
  public static Registration registerAll(Host host) {
    Registration logs = registerLogCompanions(host.invariants());
    try {
      Registration jobs = host.service(JobService.class)
          .map(service -> JobsCompanion.install(host.invariants(), service, host.agents()))
          .orElse(Registration.noop());
      return () -> {
        jobs.close();
        logs.close();
      };
    } catch (RuntimeException e) {
      logs.close();
      throw e;
    }
  }

  private static void closeAll(List<Registration> registrations) {
    for (int i = registrations.size() - 1; i >= 0; i--) {
      registrations.get(i).close();
    }
  }
}
