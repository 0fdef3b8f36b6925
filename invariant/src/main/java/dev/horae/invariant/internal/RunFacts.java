package dev.horae.invariant.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.gate.RunState;
import dev.horae.gate.runtime.ThreadCommit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The run facts of one session log, replayed commit by commit: the last accepted commit sequence
 * and the latest state of every Run. A rejected commit changes nothing, as a vetoed append would
 * not have. Not thread-safe; appends to one session are serialized by the host.
 */
public final class RunFacts {

  /** The session event type that carries one commit (gate-runtime's store writes it). */
  public static final String COMMIT_EVENT = "gate/commit";

  private long sequence;
  private final Map<String, RunState> runs = new HashMap<>();

  /** A legal commit, decoded. */
  private record Fact(long sequence, String runId, RunState state) {}

  /** Why a commit is illegal, or the fact it establishes. */
  private record Verdict(Optional<String> violation, Optional<Fact> fact) {
    static Verdict illegal(String why) {
      return new Verdict(Optional.of(why), Optional.empty());
    }
  }

  /** Creates an empty replay. */
  public RunFacts() {}

  /**
   * Checks one {@code gate/commit} payload and, when it is legal, applies it.
   *
   * @param payload the event's data
   * @return why the commit is illegal (then nothing changed), or empty when it was applied
   */
  public Optional<String> accept(JsonNode payload) {
    Verdict verdict = judge(payload);
    verdict.fact().ifPresent(f -> {
      sequence = f.sequence();
      runs.put(f.runId(), f.state());
    });
    return verdict.violation();
  }

  private Verdict judge(JsonNode payload) {
    JsonNode seq = payload.path("sequence");
    if (!payload.isObject() || !seq.isIntegralNumber() || !seq.canConvertToLong()) {
      return Verdict.illegal("gate commit payload is malformed: \"sequence\" must be an integer");
    }
    ThreadCommit commit;
    try {
      commit = ThreadCommit.fromJson(payload.path("commit"));
    } catch (RuntimeException e) {
      // the codec reports shape errors as GateJsonException, record invariants as NPE/IAE
      return Verdict.illegal("gate commit payload is malformed: " + e.getMessage());
    }
    Optional<String> invalid = commit.validate();
    if (invalid.isPresent()) {
      return Verdict.illegal(invalid.get());
    }
    if (seq.longValue() != sequence + 1) {
      return Verdict.illegal("gate commit sequence must be " + (sequence + 1) + ", found " + seq.longValue());
    }
    String runId = commit.run().runId();
    RunState latest = runs.get(runId);
    if (latest != null && !latest.permits(commit.run().state())) {
      return Verdict.illegal("run " + runId + " has already ended; later commits are rejected");
    }
    return new Verdict(Optional.empty(), Optional.of(new Fact(seq.longValue(), runId, commit.run().state())));
  }
}
