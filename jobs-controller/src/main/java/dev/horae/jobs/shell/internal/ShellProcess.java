package dev.horae.jobs.shell.internal;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.jobs.shell.OutputWindow;
import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.time.Cancellable;
import dev.horae.spi.time.Timers;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running shell job (jobs spec §7.2–§7.5): the root process, its reader, the bounded unread
 * window, cancellation of the process tree and the moment {@code done} completes. A per-job lock
 * guards all state; the reader thread holds it only to append a chunk.
 */
public final class ShellProcess {

  private static final Logger LOG = LoggerFactory.getLogger(ShellProcess.class);
  private static final int CHUNK = 8192;

  private final Object lock = new Object();
  private final Process process;
  private final OutputWindow window;
  private final Timers timers;
  private final Duration killGrace;
  private final Duration drainGrace;
  private final Signals.Platform platform;
  private final Runnable onFinished;
  private final CompletableFuture<JobOutcome> done = new CompletableFuture<>();

  // guarded by lock
  private boolean rootExited;
  private int exitValue;
  private boolean endOfStream;
  private boolean drainElapsed;
  private boolean cancelRequested;
  private boolean escalationDone;
  private boolean capturedExited;
  private boolean completed;
  private @Nullable IOException captureFailure;
  private Cancellable drainTimer = () -> {};
  private Cancellable escalationTimer = () -> {};

  /**
   * Wraps a started process; call {@link #begin} next.
   *
   * @param process the started root process (stdin already closed)
   * @param window the unread window
   * @param timers monotonic timers for the kill and drain graces
   * @param killGrace delay before the forced kill
   * @param drainGrace wait for end of output after the root exited
   * @param platform signal table to decode exit values
   * @param onFinished runs once when {@code done} is about to complete
   */
  public ShellProcess(
      Process process,
      OutputWindow window,
      Timers timers,
      Duration killGrace,
      Duration drainGrace,
      Signals.Platform platform,
      Runnable onFinished) {
    this.process = process;
    this.window = window;
    this.timers = timers;
    this.killGrace = killGrace;
    this.drainGrace = drainGrace;
    this.platform = platform;
    this.onFinished = onFinished;
  }

  /**
   * Starts the reader thread and watches the root's exit.
   *
   * @param reader a fresh thread factory result for {@link #pump}; started here
   */
  public void begin(Thread reader) {
    reader.start();
    var unused = process.onExit().whenComplete((p, e) -> onRootExit());
  }

  /**
   * The reader loop; run on the reader thread passed to {@link #begin}.
   */
  public void pump() {
    byte[] buffer = new byte[CHUNK];
    try (InputStream in = process.getInputStream()) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        synchronized (lock) {
          window.append(buffer, 0, n);
        }
      }
    } catch (IOException e) {
      synchronized (lock) {
        captureFailure = e;
      }
    }
    synchronized (lock) {
      endOfStream = true;
      window.end();
      drainTimer.cancel();
    }
    tryComplete();
  }

  /**
   * Runs {@code action} once {@code done} completed (at once if it already has).
   *
   * @param action a short callback
   */
  public void whenFinished(Runnable action) {
    var unused = done.whenComplete((o, e) -> action.run());
  }

  /**
   * The stream hooks the registry drives.
   *
   * @return cancel, done and the consuming reader
   */
  public JobHooks hooks() {
    return JobHooks.stream(this::cancel, done, this::readOutput);
  }

  /**
   * The root process id.
   *
   * @return the pid
   */
  public long pid() {
    return process.pid();
  }

  /**
   * Bytes the unread window holds right now.
   *
   * @return retained bytes
   */
  public int retainedBytes() {
    synchronized (lock) {
      return window.retainedBytes();
    }
  }

  /**
   * Forcibly destroys the tree at once (JVM shutdown).
   */
  public void destroyNow() {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    process.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  private String readOutput() {
    synchronized (lock) {
      return window.read();
    }
  }

  private void cancel(Optional<String> reason) {
    synchronized (lock) {
      if (rootExited || cancelRequested) {
        return;
      }
      cancelRequested = true;
    }
    LOG.info(
        "cancelling shell job pid {}: {}", process.pid(), reason.orElse("(no reason given)"));
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(process.toHandle());
    tree.addAll(process.descendants().toList());
    // the root goes first so a shell cannot move on to its next command after a child dies
    for (ProcessHandle h : tree) {
      h.destroy();
    }
    Cancellable timer = timers.schedule(killGrace, () -> escalate(tree));
    synchronized (lock) {
      escalationTimer = timer;
    }
    var unused =
        CompletableFuture.allOf(
                tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture<?>[]::new))
            .whenComplete(
                (v, e) -> {
                  synchronized (lock) {
                    capturedExited = true;
                    escalationTimer.cancel();
                  }
                  tryComplete();
                });
  }

  private void escalate(List<ProcessHandle> tree) {
    List<ProcessHandle> targets = new ArrayList<>(tree);
    if (process.isAlive()) {
      targets.addAll(process.descendants().toList());
    }
    for (ProcessHandle h : targets) {
      if (h.isAlive()) {
        h.destroyForcibly();
      }
    }
    synchronized (lock) {
      escalationDone = true;
    }
    tryComplete();
  }

  private void onRootExit() {
    synchronized (lock) {
      rootExited = true;
      exitValue = process.exitValue();
      if (!endOfStream) {
        drainTimer =
            timers.schedule(
                drainGrace,
                () -> {
                  synchronized (lock) {
                    drainElapsed = true;
                  }
                  tryComplete();
                });
      }
    }
    tryComplete();
  }

  private void tryComplete() {
    JobOutcome outcome;
    synchronized (lock) {
      if (completed || !rootExited || !(endOfStream || drainElapsed)) {
        return;
      }
      if (cancelRequested && !(escalationDone || capturedExited)) {
        return;
      }
      completed = true;
      drainTimer.cancel();
      escalationTimer.cancel();
      outcome = outcomeLocked();
    }
    onFinished.run();
    done.complete(outcome);
  }

  private JobOutcome outcomeLocked() {
    IOException failure = captureFailure;
    if (failure != null) {
      return JobOutcome.failed(Optional.of("output capture failed: " + Errors.render(failure)));
    }
    Optional<String> signal = Signals.fromExitValue(platform, exitValue);
    if (signal.isPresent()) {
      return JobOutcome.killed(Optional.of("signal: " + signal.get()));
    }
    String detail = "exit code: " + exitValue;
    return cancelRequested
        ? JobOutcome.killed(Optional.of(detail))
        : JobOutcome.completed(Optional.of(detail));
  }
}
