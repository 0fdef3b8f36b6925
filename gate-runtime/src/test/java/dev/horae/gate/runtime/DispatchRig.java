package dev.horae.gate.runtime;

import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Session;
import dev.horae.store.Postgres;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * A dispatch backend on a manual clock, without an engine: the queue on one of its three stores,
 * the thread its records name, and a {@link RecordingTarget} for a dispatcher, so the queue-level
 * suites of this module test what the queue and the dispatcher decide. How the production engine
 * runs what they dispatch is the runtime module's rig.
 */
final class DispatchRig implements AutoCloseable {

  /** Which backend a rig runs on. */
  enum Kind {
    IN_MEMORY,
    SESSION_LOG,
    /** Commits in the session log, dispatch records in PostgreSQL ({@link JdbcDispatchQueue}). */
    JDBC
  }

  static final String SNAPSHOT = "snapshot-1";

  final Kind kind;
  final LogHost host;
  final QueuedTimers timers = new QueuedTimers();
  final DispatchQueue queue;
  final String thread;
  final RecordingTarget target = new RecordingTarget();
  final Deque<Runnable> work = new ArrayDeque<>();

  private DispatchRig(Kind kind, LogHost host) {
    this.kind = kind;
    this.host = host;
    if (kind == Kind.IN_MEMORY) {
      this.queue = InMemoryDispatchQueue.create();
      this.thread = "thread-1";
    } else {
      Session s = host.sessions().create(CreateOptions.DEFAULT);
      this.thread = s.id();
      this.queue = kind == Kind.JDBC ? jdbcQueue(host)
          : SessionDispatchQueue.over(host.sessions()::get, host.sessions()::flush);
    }
  }

  /** A migrated queue on tables of its own in the shared embedded PostgreSQL. */
  static JdbcDispatchQueue jdbcQueue(LogHost host) {
    JdbcDispatchQueue q = JdbcDispatchQueue.over(Postgres.started(), Postgres.freshPrefix(), host.clock(),
        host.sessions()::get, host.sessions()::flush);
    q.migrate();
    return q;
  }

  static DispatchRig of(Kind kind) {
    return new DispatchRig(kind, LogHost.create());
  }

  /** The rig holds nothing that outlives it; here so suites close every rig they open. */
  @Override
  public void close() {
  }

  CommitStore store() {
    return queue.store();
  }

  long now() {
    return host.clock().millis();
  }

  Executor executor() {
    return work::add;
  }

  /** Runs queued executor work until none is left. */
  void runWork() {
    Runnable r;
    while ((r = work.poll()) != null) {
      r.run();
    }
  }

  DurableDispatcher.Builder dispatcher(String owner) {
    return DurableDispatcher.builder(target, queue).clock(host.clock()).timers(timers)
        .executor(executor()).owner(owner);
  }

  DurableDispatcher dispatcher(String owner, DispatcherOptions options) {
    return dispatcher(owner).options(options).build();
  }

  RunActivation activation(String runId, String input) {
    return new RunActivation(runId, thread, SNAPSHOT, input);
  }
}
