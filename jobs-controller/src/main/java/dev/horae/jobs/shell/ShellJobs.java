package dev.horae.jobs.shell;

import dev.horae.jobs.errors.internal.Errors;
import dev.horae.jobs.shell.internal.ShellProcess;
import dev.horae.jobs.shell.internal.Signals;
import dev.horae.spi.agent.Agent;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.time.Timers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * The shell job producer, kind {@code bash} (jobs spec §7): starts a command through {@link
 * ProcessBuilder} with stdout and stderr combined, streams its output through one consuming
 * cursor with bounded retention, and cancels by terminating the whole process tree (gracefully,
 * then forcibly after the kill grace).
 */
public final class ShellJobs implements AutoCloseable {

  /** The job kind and id prefix. */
  public static final String KIND = "bash";

  private final ShellJobConfig config;
  private final JobService service;
  private final Timers timers;
  private final Optional<ThreadFactory> readers;
  private final Signals.Platform platform;
  private final Set<ShellProcess> live = ConcurrentHashMap.newKeySet();
  private final Map<JobId, ShellProcess> running = new ConcurrentHashMap<>();
  private final Optional<Thread> shutdownHook;

  private ShellJobs(
      ShellJobConfig config, JobService service, Timers timers, Optional<ThreadFactory> readers) {
    this.config = config;
    this.service = service;
    this.timers = timers;
    this.readers = readers;
    this.platform = Signals.Platform.of(System.getProperty("os.name", "Linux"));
    if (config.destroyOnJvmExit()) {
      Thread hook = new Thread(() -> live.forEach(ShellProcess::destroyNow), "shell-jobs-exit");
      Runtime.getRuntime().addShutdownHook(hook);
      this.shutdownHook = Optional.of(hook);
    } else {
      this.shutdownHook = Optional.empty();
    }
  }

  /**
   * Creates the producer; reader threads are daemon threads named {@code shell-job-<pid>}.
   *
   * @param config the producer configuration
   * @param service the job registry jobs are registered with
   * @param timers monotonic timers for the kill and drain graces
   * @return the producer
   */
  public static ShellJobs create(ShellJobConfig config, JobService service, Timers timers) {
    return new ShellJobs(config, service, timers, Optional.empty());
  }

  /**
   * Creates the producer with an injected reader thread factory.
   *
   * @param config the producer configuration
   * @param service the job registry
   * @param timers monotonic timers
   * @param readers makes one reader thread per job
   * @return the producer
   */
  public static ShellJobs create(
      ShellJobConfig config, JobService service, Timers timers, ThreadFactory readers) {
    return new ShellJobs(config, service, timers, Optional.of(readers));
  }

  /**
   * Starts {@code command} as a background job.
   *
   * @param command the shell command text, also the job label
   * @param owner the calling agent, or empty for an unowned job
   * @return the job id {@code bash-<N>}
   * @throws JobsException {@code invalid_argument} for an empty command, {@code spawn_failed} when
   *     the shell cannot start (no job is registered then), or any start preflight failure
   */
  public JobId start(String command, Optional<Agent> owner) {
    Objects.requireNonNull(command, "command");
    if (command.isEmpty()) {
      throw new JobsException(
          JobsException.INVALID_ARGUMENT, "invalid command: expected a non-empty string, got \"\"");
    }
    List<ShellProcess> spawned = new ArrayList<>(1);
    JobId id =
        service.start(
            JobStart.builder(
                    KIND,
                    command,
                    () -> {
                      ShellProcess p = spawn(command);
                      spawned.add(p);
                      return p.hooks();
                    })
                .owner(owner)
                .outputLimitBytes(config.outputLimitBytes())
                .build());
    ShellProcess process = spawned.get(0);
    running.put(id, process);
    // runs at once when the job already completed, so no finished process is pinned
    process.whenFinished(() -> running.remove(id));
    return id;
  }

  /**
   * Bytes the unread window of a running job holds right now (the memory bound: at most
   * {@code retainHeadBytes + retainTailBytes + 3}).
   *
   * @param id a job started by this producer
   * @return the retained bytes, or empty once the job completed
   */
  public OptionalInt retainedBytes(JobId id) {
    ShellProcess p = running.get(id);
    return p == null ? OptionalInt.empty() : OptionalInt.of(p.retainedBytes());
  }

  /**
   * Number of process trees started by this producer whose job has not completed yet.
   *
   * @return the count
   */
  public int liveCount() {
    return live.size();
  }

  /** Removes the JVM shutdown hook; running jobs keep running until cancelled or finished. */
  @Override
  public void close() {
    shutdownHook.ifPresent(
        hook -> {
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs anyway
          }
        });
  }

  private ShellProcess spawn(String command) {
    List<String> argv = new ArrayList<>(config.shell());
    argv.add(command);
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
    config.workingDirectory().ifPresent(dir -> builder.directory(dir.toFile()));
    builder.environment().putAll(config.environment());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new JobsException(
          JobsException.SPAWN_FAILED, "failed to start shell: " + Errors.render(e), e);
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // the child may already have exited; it reads end-of-file either way
    }
    ShellProcess[] self = new ShellProcess[1];
    ShellProcess job =
        new ShellProcess(
            process,
            new OutputWindow((int) config.retainHeadBytes(), (int) config.retainTailBytes()),
            timers,
            Duration.ofMillis(config.killGraceMs()),
            Duration.ofMillis(config.drainGraceMs()),
            platform,
            () -> live.remove(self[0]));
    self[0] = job;
    live.add(job);
    Thread reader =
        readers.isPresent()
            ? readers.get().newThread(job::pump)
            : daemon(job::pump, "shell-job-" + process.pid());
    job.begin(reader);
    return job;
  }

  private static Thread daemon(Runnable task, String name) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    return t;
  }
}
