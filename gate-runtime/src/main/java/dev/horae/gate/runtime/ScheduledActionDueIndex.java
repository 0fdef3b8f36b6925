package dev.horae.gate.runtime;

import dev.horae.gate.AwaitReason;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The gate's due time of a session, for a store's due index: the commit time of the session's
 * earliest active scheduled-action ticket, or nothing when none is active. A committed scheduled
 * action is work that needs its session open (gate specification §9.2, §12.5.1: committed scheduled
 * work is wakeable the moment it commits), so a session whose node died before performing it is
 * due at once, and a due-sessions worker opens it, whose reopened agent performs the action.
 *
 * <p>The fold is {@link SessionCommitStore}'s own ({@code ThreadFold}: the latest fact of a Run is
 * its authority), kept incrementally, so the index and the runtime read a ticket the same way: the
 * pre-commit of a perform (running), a denial, a stop or an end clears it. A fork's inherited
 * commits belong to its parent's thread and are skipped, as the store skips them.
 *
 * <p>The shape is JDK and contract types only, so a host passes it to a store without the gate
 * depending on one ({@code docs/architecture.md}, "Layering rules"): {@code
 * FileSessionStore.open(root, sync, ScheduledActionDueIndex::track)}; the runtime composes it with
 * the application's indexer ({@code HoraeRuntime.dueIndexer}).
 */
public final class ScheduledActionDueIndex {

  private ScheduledActionDueIndex() {}

  /**
   * A tracker of one session: fed its events from seq 0 on, in order, it answers after each batch
   * the epoch milliseconds of the {@code gate/commit} event that left the earliest still active
   * scheduled-action ticket of the session's thread.
   *
   * @param header the session's header; its id is the gate thread (gate specification §12.0)
   * @return the tracker; it throws {@link dev.horae.gate.GateJsonException} when a {@code
   *     gate/commit} event does not decode, as the commit store's fold would
   */
  public static Function<List<SessionEvent>, OptionalLong> track(SessionHeader header) {
    ThreadFold fold = new ThreadFold(header.id());
    // Run → commit time of its active scheduled-action ticket
    Map<String, Long> active = new HashMap<>();
    return events -> {
      for (SessionEvent e : events) {
        if (!e.type().equals(ThreadFold.EVENT_TYPE)) {
          continue;
        }
        fold.apply(e.data()).ifPresent(runId -> {
          boolean scheduled = fold.run(runId).flatMap(RunRecord::ticket)
              .map(t -> t.reason() == AwaitReason.SCHEDULED_ACTION).orElse(false);
          if (scheduled) {
            active.put(runId, e.time());
          } else {
            active.remove(runId);
          }
        });
      }
      return active.values().stream().mapToLong(Long::longValue).min();
    };
  }
}
