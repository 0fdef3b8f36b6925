package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.GateJson;
import dev.horae.gate.ResumeCommand;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The dispatch records and resume inbox of §12.5 as a fold of dispatch facts: every change is a
 * fact ({@code enqueue}, {@code claim}, {@code settle}, {@code consumed}, {@code resume}, {@code
 * cancel}; §12.5.6) planned from the current records, written by the backend, then applied. Leases
 * are the one thing that is not a fact: a replayed running record has no known lease and so
 * counts as expired. Not thread-safe; the queue's lock guards it.
 */
final class DispatchTable {

  /** The session event type that carries one dispatch fact. */
  static final String EVENT_TYPE = "gate/dispatch";

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private static final class Rec {
    final String runId;
    final String threadId;
    DispatchStatus status = DispatchStatus.PENDING;
    Optional<String> owner = Optional.empty();
    long epoch;
    OptionalLong lease = OptionalLong.empty();
    int attempts;
    long availableAt;
    Optional<RunActivation> activation = Optional.empty();
    boolean cancel;
    // an answer or a cancel arrived while running: that attempt's settle makes the record pending
    boolean wokenWhileRunning;

    Rec(String runId, String threadId, long availableAt) {
      this.runId = runId;
      this.threadId = threadId;
      this.availableAt = availableAt;
    }

    DispatchRecord snapshot() {
      return new DispatchRecord(runId, threadId, status, owner, epoch, lease, attempts, availableAt,
          activation, cancel);
    }

    boolean expired(long nowMs) {
      return status == DispatchStatus.RUNNING && (lease.isEmpty() || lease.getAsLong() < nowMs);
    }
  }

  private final Map<String, Rec> records = new TreeMap<>();
  private final Map<String, List<PendingResume>> inbox = new HashMap<>();
  private long nextResumeId = 1;

  Optional<DispatchRecord> record(String runId) {
    return Optional.ofNullable(records.get(runId)).map(Rec::snapshot);
  }

  List<PendingResume> resumes(String runId) {
    return List.copyOf(inbox.getOrDefault(runId, List.of()));
  }

  // ---------------------------------------------------------------- plans (no change)

  List<ObjectNode> planOutbox(ThreadCommit commit) {
    if (!DispatchQueue.wakesOnCommit(commit)) {
      return List.of();
    }
    @Nullable Rec r = records.get(commit.run().runId());
    if (r != null && r.status != DispatchStatus.AWAITING) {
      // a running record is the worker driving the Run; a pending one is already wakeable
      return List.of();
    }
    return List.of(enqueue(commit.run().runId(), commit.threadId(), 0L, Optional.empty()));
  }

  Optional<ObjectNode> planClaim(String owner, long nowMs, int maxRecoveryAttempts, boolean exhausted) {
    Optional<Rec> pick = records.values().stream()
        .filter(r -> exhausted
            ? r.expired(nowMs) && r.attempts >= maxRecoveryAttempts
            : (r.status == DispatchStatus.PENDING && r.availableAt <= nowMs)
                || (r.expired(nowMs) && r.attempts < maxRecoveryAttempts))
        .min(Comparator.<Rec>comparingLong(r -> r.availableAt).thenComparing(r -> r.runId));
    return pick.map(r -> {
      boolean recovery = r.status == DispatchStatus.RUNNING;
      ObjectNode o = fact("claim", r.runId, r.threadId);
      o.put("owner", owner);
      o.put("epoch", r.epoch + 1);
      o.put("attemptCount", recovery && !exhausted ? r.attempts + 1 : r.attempts);
      o.put("recovery", recovery);
      return o;
    });
  }

  boolean current(DispatchClaim claim) {
    @Nullable Rec r = records.get(claim.runId());
    return r != null && r.status == DispatchStatus.RUNNING && r.epoch == claim.epoch()
        && r.owner.map(claim.owner()::equals).orElse(false);
  }

  List<ObjectNode> planSettle(DispatchClaim claim, DispatchQueue.Settlement s, Collection<Long> consumed) {
    List<ObjectNode> out = new ArrayList<>();
    if (!consumed.isEmpty() && s == DispatchQueue.Settlement.AWAITING) {
      ObjectNode c = fact("consumed", claim.runId(), claim.threadId());
      consumed.forEach(c.putArray("ids")::add);
      out.add(c);
    }
    ObjectNode o = fact("settle", claim.runId(), claim.threadId());
    o.put("epoch", claim.epoch());
    o.put("settlement", s == DispatchQueue.Settlement.DONE ? "done" : "awaiting");
    out.add(o);
    return out;
  }

  boolean has(String runId) {
    return records.containsKey(runId);
  }

  ObjectNode planResume(ResumeCommand command, long nowMs) {
    ObjectNode o = fact("resume", command.runId(), command.threadId());
    o.put("id", nextResumeId);
    o.put("availableAtMs", nowMs);
    o.set("command", GateJson.encodeResumeCommand(command));
    return o;
  }

  static ObjectNode planCancel(String runId, String threadId, long nowMs) {
    ObjectNode o = fact("cancel", runId, threadId);
    o.put("availableAtMs", nowMs);
    return o;
  }

  static ObjectNode enqueue(String runId, String threadId, long availableAtMs, Optional<RunActivation> activation) {
    ObjectNode o = fact("enqueue", runId, threadId);
    o.put("availableAtMs", availableAtMs);
    activation.ifPresent(a -> o.set("activation", encodeActivation(a)));
    return o;
  }

  /** The JSON form of a stored activation: in an {@code enqueue} fact and a JDBC row alike. */
  static ObjectNode encodeActivation(RunActivation a) {
    ObjectNode j = F.objectNode();
    j.put("runId", a.runId());
    j.put("threadId", a.threadId());
    j.put("snapshotId", a.snapshotId());
    j.put("input", a.input());
    return j;
  }

  /** Reads {@link #encodeActivation}'s form. */
  static RunActivation decodeActivation(JsonNode a) {
    return new RunActivation(a.path("runId").asText(), a.path("threadId").asText(),
        a.path("snapshotId").asText(), a.path("input").asText());
  }

  private static ObjectNode fact(String op, String runId, String threadId) {
    ObjectNode o = F.objectNode();
    o.put("op", op);
    o.put("runId", runId);
    o.put("threadId", threadId);
    return o;
  }

  // ---------------------------------------------------------------- apply

  /** Sets the lease of a record this process just claimed or renewed (never a fact). */
  void lease(String runId, long expiresMs) {
    @Nullable Rec r = records.get(runId);
    if (r != null) {
      r.lease = OptionalLong.of(expiresMs);
    }
  }

  DispatchClaim claimOf(ObjectNode claimFact) {
    Rec r = required(records.get(claimFact.path("runId").asText()), "claim", claimFact.path("runId").asText());
    return new DispatchClaim(r.runId, r.threadId, r.owner.orElseThrow(), r.epoch,
        r.lease.orElse(Long.MIN_VALUE), r.attempts, claimFact.path("recovery").asBoolean(),
        r.activation, r.cancel);
  }

  /** Applies one fact; an unknown op or a malformed fact fails with {@link IllegalArgumentException}. */
  void apply(JsonNode f) {
    String op = f.path("op").asText();
    String runId = f.path("runId").asText();
    String threadId = f.path("threadId").asText();
    @Nullable Rec r = records.get(runId);
    switch (op) {
      case "enqueue" -> {
        long at = f.path("availableAtMs").asLong();
        if (r == null) {
          Rec n = new Rec(runId, threadId, at);
          if (f.hasNonNull("activation")) {
            n.activation = Optional.of(decodeActivation(f.get("activation")));
          }
          records.put(runId, n);
        } else if (r.status == DispatchStatus.AWAITING) {
          r.status = DispatchStatus.PENDING;
          r.availableAt = at;
        }
      }
      case "claim" -> {
        Rec c = required(r, op, runId);
        c.status = DispatchStatus.RUNNING;
        c.owner = Optional.of(f.path("owner").asText());
        c.epoch = f.path("epoch").asLong();
        c.attempts = f.path("attemptCount").asInt();
        c.lease = OptionalLong.empty();
      }
      case "settle" -> {
        Rec c = required(r, op, runId);
        if (f.path("settlement").asText().equals("done")) {
          records.remove(runId);
          inbox.remove(runId);
        } else {
          c.status = c.wokenWhileRunning || c.cancel ? DispatchStatus.PENDING : DispatchStatus.AWAITING;
          c.owner = Optional.empty();
          c.lease = OptionalLong.empty();
          c.attempts = 0;
          c.wokenWhileRunning = false;
        }
      }
      case "consumed" -> {
        List<PendingResume> waiting = inbox.get(runId);
        if (waiting != null) {
          List<Long> ids = new ArrayList<>();
          f.path("ids").forEach(id -> ids.add(id.asLong()));
          waiting.removeIf(p -> ids.contains(p.id()));
        }
      }
      case "resume" -> {
        long id = f.path("id").asLong();
        inbox.computeIfAbsent(runId, k -> new ArrayList<>())
            .add(new PendingResume(id, GateJson.decodeResumeCommand(f.path("command"))));
        nextResumeId = Math.max(nextResumeId, id + 1);
        wake(r, runId, threadId, f.path("availableAtMs").asLong());
      }
      case "cancel" -> wake(r, runId, threadId, f.path("availableAtMs").asLong()).cancel = true;
      default -> throw new IllegalArgumentException("unknown dispatch fact op \"" + op + "\"");
    }
  }

  private Rec wake(@Nullable Rec r, String runId, String threadId, long at) {
    if (r == null) {
      Rec n = new Rec(runId, threadId, at);
      records.put(runId, n);
      return n;
    }
    if (r.status == DispatchStatus.AWAITING) {
      r.status = DispatchStatus.PENDING;
      r.availableAt = at;
    } else if (r.status == DispatchStatus.RUNNING) {
      r.wokenWhileRunning = true;
    }
    return r;
  }

  private static Rec required(@Nullable Rec r, String op, String runId) {
    if (r == null) {
      throw new IllegalArgumentException("dispatch fact " + op + " for run " + runId + " has no record");
    }
    return r;
  }
}
