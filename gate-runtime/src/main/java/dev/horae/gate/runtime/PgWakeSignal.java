package dev.horae.gate.runtime;

import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL wake signal of gate specification §12.5.7: one dedicated connection in {@code
 * LISTEN} on a {@link JdbcDispatchQueue}'s channel ({@link JdbcDispatchQueue#wakeChannel}), whose
 * notifications — sent by every queue on that prefix, in any process, when a change makes work
 * claimable — wake the {@link DurableDispatcher} waiting on it. {@link #publish()} wakes this
 * process's waiter only; the notification the queue sent reaches every listener, this one too.
 *
 * <p>It is a hint (§12.5.7): a lost notification costs at most the dispatcher's poll interval,
 * which stays the bound. When the connection drops (a server restart, {@code
 * pg_terminate_backend}, a failed liveness check) the listener closes it, waits the reconnect
 * backoff on the injected timers (500 ms by default, WAKE-02) and connects again, as often as it
 * takes; after every connect it wakes the waiter once, because notifications sent while it was
 * not listening are lost and the dispatcher must look for itself.
 *
 * <p>The listener loop runs as one long task on the injected executor (the engine starts no
 * threads), which it occupies until {@link #close()}. While idle it waits for notifications for at
 * most the check interval (a socket read timeout inside the driver), then checks the connection
 * with {@code SELECT 1} under the same network timeout, so a connection that died without a word
 * is found within two intervals. The data source should hand out a connection that may be held
 * indefinitely (a pool counts it as in use for the signal's lifetime).
 */
public final class PgWakeSignal implements WakeSignal, AutoCloseable {

  /** The reconnect backoff of §12.5.7 (WAKE-02). */
  public static final Duration DEFAULT_RECONNECT_BACKOFF = Duration.ofMillis(500);

  /** How long an idle listener waits for notifications before it checks its connection. */
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(PgWakeSignal.class);

  private final DataSource dataSource;
  private final String channel;
  private final Timers timers;
  private final Executor executor;
  private final Duration backoff;
  private final int checkMs;
  // the dispatcher waits on this; the listener and local publishers only feed it
  private final WakeSignal local = WakeSignal.inProcess();

  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private final AtomicLong connects = new AtomicLong();
  private final AtomicLong notifications = new AtomicLong();
  private volatile boolean closed;
  private volatile @Nullable Connection connection;
  private volatile @Nullable CompletableFuture<Void> backoffGate;
  private volatile @Nullable Cancellable backoffTimer;

  private PgWakeSignal(Builder b) {
    this.dataSource = b.dataSource;
    this.channel = b.channel;
    this.timers = Objects.requireNonNull(b.timers, "timers");
    this.executor = Objects.requireNonNull(b.executor, "executor");
    this.backoff = b.backoff;
    this.checkMs = Math.toIntExact(b.checkInterval.toMillis());
  }

  /**
   * Starts a builder for the channel of the queues with {@code prefix}.
   *
   * @param dataSource where the listening connection comes from: the queues' database
   * @param prefix the queues' table prefix ({@link JdbcDispatchQueue#prefix()})
   * @return the builder
   * @throws IllegalArgumentException when the prefix is not a valid table prefix
   */
  public static Builder builder(DataSource dataSource, String prefix) {
    return new Builder(dataSource, JdbcDispatchQueue.wakeChannel(prefix));
  }

  /** Configures a {@link PgWakeSignal}. */
  public static final class Builder {
    private final DataSource dataSource;
    private final String channel;
    private @Nullable Timers timers;
    private @Nullable Executor executor;
    private Duration backoff = DEFAULT_RECONNECT_BACKOFF;
    private Duration checkInterval = DEFAULT_CHECK_INTERVAL;

    private Builder(DataSource dataSource, String channel) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.channel = channel;
    }

    /**
     * The host's timer service, for the reconnect backoff; required.
     *
     * @param t the timers
     * @return this builder
     */
    public Builder timers(Timers t) {
      this.timers = Objects.requireNonNull(t, "timers");
      return this;
    }

    /**
     * Where the listener loop runs; required. The loop holds one of its threads until {@link
     * PgWakeSignal#close()}, so a bounded pool must have one to spare.
     *
     * @param e the executor
     * @return this builder
     */
    public Builder executor(Executor e) {
      this.executor = Objects.requireNonNull(e, "executor");
      return this;
    }

    /**
     * The wait before each reconnect; default {@link #DEFAULT_RECONNECT_BACKOFF}.
     *
     * @param d the backoff; not negative
     * @return this builder
     * @throws IllegalArgumentException when negative
     */
    public Builder reconnectBackoff(Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("the reconnect backoff must not be negative, got " + d);
      }
      this.backoff = d;
      return this;
    }

    /**
     * How long an idle listener waits before it checks its connection; default {@link
     * #DEFAULT_CHECK_INTERVAL}. It bounds how late a silently dead connection is noticed.
     *
     * @param d the interval; from 1 ms to {@link Integer#MAX_VALUE} ms
     * @return this builder
     * @throws IllegalArgumentException when out of range
     */
    public Builder checkInterval(Duration d) {
      if (d.toMillis() < 1 || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("the check interval must be from 1 ms to " + Integer.MAX_VALUE
            + " ms, got " + d);
      }
      this.checkInterval = d;
      return this;
    }

    /**
     * Builds the signal and starts its listener on the executor.
     *
     * @return the listening signal (its first connect may still be under way)
     * @throws NullPointerException when the timers or executor is missing
     * @throws java.util.concurrent.RejectedExecutionException when the executor refuses the loop
     */
    public PgWakeSignal start() {
      PgWakeSignal s = new PgWakeSignal(this);
      s.executor.execute(s::listen);
      return s;
    }
  }

  /**
   * The channel it listens on.
   *
   * @return {@code <prefix>dispatch_wake}
   */
  public String channel() {
    return channel;
  }

  /**
   * How many times the listener has connected and issued {@code LISTEN}; more than one means it
   * reconnected. For operators' metrics.
   *
   * @return the count
   */
  public long connects() {
    return connects.get();
  }

  /**
   * How many notifications the listener has received on its channel. For operators' metrics.
   *
   * @return the count
   */
  public long notifications() {
    return notifications.get();
  }

  /** Wakes this process's waiter; other processes learn of work from the queue's notification. */
  @Override
  public void publish() {
    local.publish();
  }

  @Override
  public CompletionStage<Void> next() {
    return local.next();
  }

  // ---------------------------------------------------------------- the listener

  private void listen() {
    boolean failing = false;
    try {
      while (!closed) {
        try {
          connectAndReceive();
          failing = false;
        } catch (SQLException | RuntimeException e) {
          if (closed) {
            break;
          }
          // one warning per outage, not one per retry while the database stays away
          if (!failing) {
            LOG.warn("wake listener on channel {} lost its connection; reconnecting every {} ms until it is back "
                + "(dispatchers meanwhile find work at their poll interval)", channel, backoff.toMillis(), e);
          } else {
            LOG.debug("wake listener on channel {} could not reconnect", channel, e);
          }
          failing = true;
        }
        if (!closed && !awaitBackoff()) {
          break;
        }
      }
    } finally {
      stopped.complete(null);
    }
  }

  private void connectAndReceive() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      connection = c;
      if (closed) {
        return; // close() may have looked before the field was set
      }
      PGConnection pg = c.unwrap(PGConnection.class);
      c.setAutoCommit(true);
      // bounds the liveness check; the notification wait sets its own read timeout
      c.setNetworkTimeout(Runnable::run, checkMs);
      try (Statement s = c.createStatement()) {
        // the channel is a validated lowercase identifier (JdbcDispatchQueue.wakeChannel)
        s.execute("LISTEN " + channel);
        if (connects.incrementAndGet() > 1) {
          LOG.info("wake listener on channel {} is listening again", channel);
        }
        // §12.5.7: notifications sent while nobody listened are lost, so look once now
        local.publish();
        while (!closed) {
          PGNotification[] received = pg.getNotifications(checkMs);
          if (received != null && received.length > 0) {
            notifications.addAndGet(received.length);
            local.publish();
          } else if (!closed) {
            s.execute("SELECT 1");
          }
        }
      }
    } finally {
      connection = null;
    }
  }

  // the backoff is a timer of the injected service; close() opens the gate early
  private boolean awaitBackoff() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    backoffGate = gate;
    Cancellable timer = timers.schedule(backoff, () -> gate.complete(null));
    backoffTimer = timer;
    // close() may have looked before the field was set
    if (closed) {
      timer.cancel();
      return false;
    }
    gate.join();
    return !closed;
  }

  /**
   * Stops the listener: cancels a pending reconnect, aborts the listening connection (which ends
   * the driver's wait at once) and waits for the loop to return, at most the check interval and a
   * second. Idempotent; later hints still reach a waiter of this process through {@link
   * #publish()}.
   */
  @Override
  public void close() {
    closed = true;
    Cancellable t = backoffTimer;
    if (t != null) {
      t.cancel();
    }
    CompletableFuture<Void> gate = backoffGate;
    if (gate != null) {
      gate.complete(null);
    }
    Connection c = connection;
    if (c != null) {
      try {
        c.abort(Runnable::run);
      } catch (SQLException e) {
        LOG.debug("aborting the wake listener's connection on channel {} failed", channel, e);
      }
    }
    // bounded on the injected timers, like every wait here
    long boundMs = checkMs + 1_000L;
    CompletableFuture<Boolean> ended = new CompletableFuture<>();
    CompletableFuture<Void> unused = stopped.thenRun(() -> ended.complete(true));
    Cancellable bound = timers.schedule(Duration.ofMillis(boundMs), () -> ended.complete(false));
    if (!ended.join()) {
      // inside the driver's connect: the loop ends when that returns, since closed is set
      LOG.warn("wake listener on channel {} did not stop within {} ms; it stops when its connect returns",
          channel, boundMs);
    }
    bound.cancel();
  }
}
