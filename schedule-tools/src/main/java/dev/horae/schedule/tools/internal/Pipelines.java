package dev.horae.schedule.tools.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.schedule.ChangeCodec;
import dev.horae.schedule.CorruptScheduleLogException;
import dev.horae.schedule.CreateRequest;
import dev.horae.schedule.DeleteResult;
import dev.horae.schedule.EcmaText;
import dev.horae.schedule.ErrorCode;
import dev.horae.schedule.ImplicitZone;
import dev.horae.schedule.Operation;
import dev.horae.schedule.ScheduleChange;
import dev.horae.schedule.ScheduleError;
import dev.horae.schedule.ScheduleFold;
import dev.horae.schedule.ScheduleRecord;
import dev.horae.schedule.ScheduleResult;
import dev.horae.schedule.ScheduleView;
import dev.horae.schedule.ZoneAuthority;
import dev.horae.spi.AbortSignal;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.session.EventTypes;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.tool.ToolExecution;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The three management pipelines (spec §6.2, §7, §8) for one adopted agent, step for step:
 * shape checks before the queue, then inside the FIFO the head cancellation check, preflight,
 * owner recompute, fold, build, cancellation check, append, barrier and owner recompute.
 *
 * <p>Every outcome is a canonical value; exceptions inside a transaction become
 * {@code internal_error} (or {@code corrupt_schedule_log} for a fold failure).
 */
public final class Pipelines {

  private final Host host;
  private final Agent agent;
  private final FoldCache cache;
  private final TransactionQueue queue;
  private final LiveOwner owner;

  /**
   * Creates the pipelines of one agent.
   *
   * @param host the host seams
   * @param agent the agent the tools were registered for
   * @param cache the agent session's fold
   * @param queue the agent's FIFO
   * @param owner the agent's live owner
   */
  public Pipelines(Host host, Agent agent, FoldCache cache, TransactionQueue queue, LiveOwner owner) {
    this.host = host;
    this.agent = agent;
    this.cache = cache;
    this.queue = queue;
    this.owner = owner;
  }

  /**
   * {@code schedule_create}.
   *
   * @param args the validated arguments
   * @param exec the execution context
   * @return the canonical value
   */
  public CompletionStage<JsonNode> create(JsonNode args, ToolExecution exec) {
    if (exec.agent() != agent) {
      return value(ScheduleError.internal().toJson());
    }
    ScheduleResult<CreateRequest> parsed = CreateRequest.parse(args);
    if (parsed instanceof ScheduleResult.Err<CreateRequest> err) {
      return value(err.error().toJson());
    }
    CreateRequest request = ((ScheduleResult.Ok<CreateRequest>) parsed).value();
    return transaction(exec.signal(), () -> createTransaction(request, exec.signal()));
  }

  private CompletionStage<JsonNode> createTransaction(CreateRequest request, AbortSignal signal) {
    Session session = agent.session();
    return Flushes.confirmed(host.sessions(), session)
        .thenCompose(
            preflight -> {
              if (!preflight) {
                return uncertain(Operation.CREATE, Optional.empty());
              }
              recompute();
              Optional<ScheduleFold> fold = fold();
              if (fold.isEmpty()) {
                return value(ScheduleError.corruptLog().toJson());
              }
              String id = fold.get().allocateId();
              long now = host.wallClock().millis();
              ScheduleResult<ScheduleRecord> built =
                  request.build(
                      id,
                      now,
                      () -> implicitZone(session));
              if (built instanceof ScheduleResult.Err<ScheduleRecord> err) {
                return value(err.error().toJson());
              }
              ScheduleRecord record = ((ScheduleResult.Ok<ScheduleRecord>) built).value();
              return commit(
                  signal,
                  session,
                  new ScheduleChange.Create(record),
                  Operation.CREATE,
                  id,
                  () -> ScheduleView.of(record, host.wallClock().millis()).toTree());
            });
  }

  /**
   * {@code schedule_list}.
   *
   * @param args the arguments (extra members are ignored)
   * @param exec the execution context
   * @return the canonical value
   */
  public CompletionStage<JsonNode> list(JsonNode args, ToolExecution exec) {
    if (exec.agent() != agent) {
      return value(ScheduleError.internal().toJson());
    }
    return transaction(
        exec.signal(),
        () ->
            Flushes.confirmed(host.sessions(), agent.session())
                .thenCompose(
                    preflight -> {
                      if (!preflight) {
                        return uncertain(Operation.LIST, Optional.empty());
                      }
                      recompute();
                      Optional<ScheduleFold> fold = fold();
                      if (fold.isEmpty()) {
                        return value(ScheduleError.corruptLog().toJson());
                      }
                      long now = host.wallClock().millis();
                      // lazy frozen rows over the fold's own texts: linear in the rows, no text
                      // round trip, and the registry's freeze hands them on without a copy
                      return tree(fold.get().activeViews(now));
                    }));
  }

  /**
   * {@code schedule_delete}.
   *
   * @param args the validated arguments
   * @param exec the execution context
   * @return the canonical value
   */
  public CompletionStage<JsonNode> delete(JsonNode args, ToolExecution exec) {
    JsonNode idNode = args.path("id");
    if (!idNode.isTextual() || !EcmaText.isNonEmptyTrimmed(idNode.textValue())) {
      return value(new ScheduleError.Basic(ErrorCode.INVALID_RULE, ScheduleError.DELETE_ID_MESSAGE).toJson());
    }
    if (exec.agent() != agent) {
      return value(ScheduleError.internal().toJson());
    }
    String id = idNode.textValue();
    AbortSignal signal = exec.signal();
    Session session = agent.session();
    return transaction(
        signal,
        () ->
            Flushes.confirmed(host.sessions(), session)
                .thenCompose(
                    preflight -> {
                      if (!preflight) {
                        return uncertain(Operation.DELETE, Optional.of(id));
                      }
                      recompute();
                      Optional<ScheduleFold> fold = fold();
                      if (fold.isEmpty()) {
                        return value(ScheduleError.corruptLog().toJson());
                      }
                      if (fold.get().activeRecord(id).isEmpty()) {
                        return value(new DeleteResult(id, false).toJson());
                      }
                      return commit(
                          signal,
                          session,
                          new ScheduleChange.Delete(id),
                          Operation.DELETE,
                          id,
                          () -> Json.parse(new DeleteResult(id, true).toJson()));
                    }));
  }

  /**
   * The shared tail of create and delete (spec §6.2, §8): the second abort check, the append of
   * the change, the persistence barrier, the owner recompute, then the tool value.
   */
  private CompletionStage<JsonNode> commit(
      AbortSignal signal,
      Session session,
      ScheduleChange change,
      Operation operation,
      String id,
      java.util.function.Supplier<JsonNode> valueOnDurable) {
    if (signal.aborted()) {
      return aborted();
    }
    try {
      session.append(EventTypes.SCHEDULE_CHANGE, ChangeCodec.encode(change));
    } catch (RuntimeException veto) {
      return value(ScheduleError.internal().toJson());
    }
    return Flushes.confirmed(host.sessions(), session)
        .thenCompose(
            barrier -> {
              if (!barrier) {
                return uncertain(operation, Optional.of(id));
              }
              recompute();
              return tree(valueOnDurable.get());
            });
  }

  /**
   * Runs a transaction in the FIFO with the head cancellation check; any unexpected exception
   * becomes {@code internal_error}.
   */
  private CompletionStage<JsonNode> transaction(
      AbortSignal signal, java.util.function.Supplier<CompletionStage<JsonNode>> body) {
    return queue
        .submit(() -> signal.aborted() ? aborted() : body.get())
        .exceptionally(Pipelines::internalError);
  }

  private static JsonNode internalError(Throwable failure) {
    return Json.parse(ScheduleError.internal().toJson());
  }

  /**
   * The implicit-zone decision from the log, reading only as much of its tail as the decision
   * needs (usually the current turn), so a long log is not copied.
   */
  static ZoneAuthority implicitZone(Session session) {
    long length = session.length();
    for (long window = 256; ; window *= 8) {
      long from = Math.max(0, length - window);
      List<SessionEvent> tail = session.eventsFrom(from);
      if (from == 0 || ImplicitZone.decidableWithin(tail)) {
        return ImplicitZone.derive(tail, session.header().timeZone());
      }
    }
  }

  /** The fold, or empty for a corrupt log; any other failure propagates as internal. */
  private Optional<ScheduleFold> fold() {
    try {
      return Optional.of(cache.refresh());
    } catch (CorruptScheduleLogException e) {
      return Optional.empty();
    }
  }

  private void recompute() {
    try {
      owner.requestDrive();
    } catch (RuntimeException e) {
      host.warnings().warn("schedule owner recompute request failed", Optional.of(e));
    }
  }

  /** The registry discards whatever a cancelled call returns and reports {@code ABORTED}. */
  private static CompletionStage<JsonNode> aborted() {
    return value(ScheduleError.internal().toJson());
  }

  private static CompletionStage<JsonNode> uncertain(Operation operation, Optional<String> id) {
    return value(new ScheduleError.PersistenceUncertain(operation, id).toJson());
  }

  private static CompletionStage<JsonNode> value(String canonicalJson) {
    return tree(Json.parse(canonicalJson));
  }

  private static CompletionStage<JsonNode> tree(JsonNode value) {
    return CompletableFuture.completedFuture(value);
  }
}
