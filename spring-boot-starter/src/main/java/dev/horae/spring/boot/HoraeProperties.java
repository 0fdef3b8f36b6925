package dev.horae.spring.boot;

import dev.horae.jobs.CompletionDelivery;
import dev.horae.jobs.registry.JobServiceConfig;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.timecontext.TimeContextConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code horae.*} properties. Each plugin setting left unset keeps the plugin's own default
 * (the configuration builders hold them, docs/time-context.md and docs/jobs.md list them); a bad
 * value fails the context's start with the plugin's own validation message.
 */
@ConfigurationProperties("horae")
public class HoraeProperties {

  /** The folder of the crash-safe file session store; unset keeps sessions in memory only. */
  private @Nullable Path dataDir;

  /** Whether the stored sessions are opened when the context starts, so due reminders fire. */
  private boolean resumeSessions = true;

  private final TimeContext timeContext = new TimeContext();
  private final Schedule schedule = new Schedule();
  private final Jobs jobs = new Jobs();
  private final Metrics metrics = new Metrics();
  private final Console console = new Console();

  /** Creates the properties with their defaults. */
  public HoraeProperties() {}

  /**
   * The data folder.
   *
   * @return the folder, or null for memory only
   */
  public @Nullable Path getDataDir() {
    return dataDir;
  }

  /**
   * Sets the data folder.
   *
   * @param dataDir the folder
   */
  public void setDataDir(@Nullable Path dataDir) {
    this.dataDir = dataDir;
  }

  /**
   * Whether stored sessions are resumed at start.
   *
   * @return true to resume
   */
  public boolean isResumeSessions() {
    return resumeSessions;
  }

  /**
   * Sets whether stored sessions are resumed at start.
   *
   * @param resumeSessions true to resume
   */
  public void setResumeSessions(boolean resumeSessions) {
    this.resumeSessions = resumeSessions;
  }

  /**
   * The {@code horae.time-context.*} properties.
   *
   * @return them
   */
  public TimeContext getTimeContext() {
    return timeContext;
  }

  /**
   * The {@code horae.schedule.*} properties.
   *
   * @return them
   */
  public Schedule getSchedule() {
    return schedule;
  }

  /**
   * The {@code horae.jobs.*} properties.
   *
   * @return them
   */
  public Jobs getJobs() {
    return jobs;
  }

  /**
   * The {@code horae.metrics.*} properties.
   *
   * @return them
   */
  public Metrics getMetrics() {
    return metrics;
  }

  /** {@code horae.metrics.*}: the Horae meters on the application's {@code MeterRegistry}. */
  public static class Metrics {
    /**
     * Whether HoraeMetrics is bound to the application's MeterRegistry, when horae-micrometer is on
     * the class path and the application has one registry (or a primary one).
     */
    private boolean enabled = true;

    /** Creates the defaults. */
    public Metrics() {}

    /**
     * Whether the meters are bound.
     *
     * @return true when enabled
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the meters are bound.
     *
     * @param enabled true to bind
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /**
   * The {@code horae.console.*} properties.
   *
   * @return them
   */
  public Console getConsole() {
    return console;
  }

  /** {@code horae.console.*}: the web console mounted in a servlet web application. */
  public static class Console {
    /**
     * Whether the web console is mounted (servlet web applications only). Off by default: it
     * answers parked calls, so it must be opted into.
     */
    private boolean enabled = false;
    /** Where the console is mounted, below the servlet context path. */
    private String path = "/horae";
    /**
     * The access token a request that is not local (not from loopback, or through a proxy) must
     * carry; without it the console answers local requests only.
     */
    private @Nullable String token;
    /** How long an answer's continued turn and its flush may take. */
    private Duration answerTimeout = Duration.ofMinutes(2);
    /** How often the console looks for changes to push to open pages. */
    private Duration watch = Duration.ofSeconds(2);

    /** Creates the defaults. */
    public Console() {}

    /**
     * Whether the console is mounted.
     *
     * @return true when enabled
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the console is mounted.
     *
     * @param enabled true to mount
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /**
     * The mount path.
     *
     * @return the path
     */
    public String getPath() {
      return path;
    }

    /**
     * Sets the mount path.
     *
     * @param path the path, like {@code /horae}
     */
    public void setPath(String path) {
      this.path = path;
    }

    /**
     * The access token.
     *
     * @return the token, or null for local requests only
     */
    public @Nullable String getToken() {
      return token;
    }

    /**
     * Sets the access token.
     *
     * @param token the token
     */
    public void setToken(@Nullable String token) {
      this.token = token;
    }

    /**
     * The answer timeout.
     *
     * @return the timeout
     */
    public Duration getAnswerTimeout() {
      return answerTimeout;
    }

    /**
     * Sets the answer timeout.
     *
     * @param answerTimeout the timeout, positive
     */
    public void setAnswerTimeout(Duration answerTimeout) {
      this.answerTimeout = answerTimeout;
    }

    /**
     * The change-check interval.
     *
     * @return the interval
     */
    public Duration getWatch() {
      return watch;
    }

    /**
     * Sets the change-check interval.
     *
     * @param watch the interval, positive
     */
    public void setWatch(Duration watch) {
      this.watch = watch;
    }
  }

  /** {@code horae.time-context.*}: the time reading before each model step. */
  public static class TimeContext {
    /** Whether the time-context plugin is installed. */
    private boolean enabled = true;
    /** The IANA zone of the readings (any zone or link name); unset uses the JVM's zone. */
    private @Nullable String timeZone;
    /** Minimum milliseconds between two readings of one session; 0 (the default) reads before every step. */
    private @Nullable Long refreshIntervalMs;
    /** Whether readings take the three-line form with the client's zone (default false). */
    private @Nullable Boolean clientZoneGuidance;

    /** Creates the defaults. */
    public TimeContext() {}

    /**
     * Whether the plugin is installed.
     *
     * @return true when enabled
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the plugin is installed.
     *
     * @param enabled true to install
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /**
     * The zone.
     *
     * @return the zone, or null for the JVM's
     */
    public @Nullable String getTimeZone() {
      return timeZone;
    }

    /**
     * Sets the zone.
     *
     * @param timeZone an IANA zone
     */
    public void setTimeZone(@Nullable String timeZone) {
      this.timeZone = timeZone;
    }

    /**
     * The refresh interval.
     *
     * @return milliseconds, or null for the plugin's default
     */
    public @Nullable Long getRefreshIntervalMs() {
      return refreshIntervalMs;
    }

    /**
     * Sets the refresh interval.
     *
     * @param refreshIntervalMs milliseconds
     */
    public void setRefreshIntervalMs(@Nullable Long refreshIntervalMs) {
      this.refreshIntervalMs = refreshIntervalMs;
    }

    /**
     * The client-zone form.
     *
     * @return the setting, or null for the plugin's default
     */
    public @Nullable Boolean getClientZoneGuidance() {
      return clientZoneGuidance;
    }

    /**
     * Sets the client-zone form.
     *
     * @param clientZoneGuidance true for the three-line form
     */
    public void setClientZoneGuidance(@Nullable Boolean clientZoneGuidance) {
      this.clientZoneGuidance = clientZoneGuidance;
    }

    /**
     * The plugin configuration these properties describe.
     *
     * @return the configuration
     * @throws dev.horae.timecontext.InvalidConfigException for a bad zone or interval
     */
    public TimeContextConfig toConfig() {
      TimeContextConfig.Builder b = TimeContextConfig.builder();
      if (timeZone != null) {
        b.timeZone(timeZone);
      }
      if (refreshIntervalMs != null) {
        b.refreshIntervalMs(refreshIntervalMs);
      }
      if (clientZoneGuidance != null) {
        b.clientZoneGuidance(clientZoneGuidance);
      }
      return b.build();
    }
  }

  /** {@code horae.schedule.*}: reminders (Schedule has no settings of its own). */
  public static class Schedule {
    /** Whether the Schedule plugin (schedule_create, schedule_list, schedule_delete) is installed. */
    private boolean enabled = true;

    /** Creates the defaults. */
    public Schedule() {}

    /**
     * Whether the plugin is installed.
     *
     * @return true when enabled
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the plugin is installed.
     *
     * @param enabled true to install
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code horae.jobs.*}: the background-job tools and the local job registry. */
  public static class Jobs {
    /** Whether the jobs controller (job_output, job_list, job_kill) and a local job registry are installed. */
    private boolean enabled = true;
    /** Wait used when a job tool waits without its own timeout_ms (default 30000). */
    private @Nullable Long waitTimeoutMs;
    /** Cap of any single wait (default 600000). */
    private @Nullable Long maxWaitTimeoutMs;
    /** How a finished job reaches an idle owner: wakeup (a new turn, the default) or quiet. */
    private @Nullable CompletionDelivery completionDelivery;
    /** Turns one owner may have opened by completion wakes before notices degrade to injection (default 3). */
    private @Nullable Long maxConsecutiveWakes;
    /** Jobs one owner may run at once in the local registry (the registry's default when unset). */
    private @Nullable Long maxConcurrentJobsPerOwner;

    /** Creates the defaults. */
    public Jobs() {}

    /**
     * Whether the jobs controller is installed.
     *
     * @return true when enabled
     */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the jobs controller is installed.
     *
     * @param enabled true to install
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /**
     * The default wait.
     *
     * @return milliseconds, or null for the default
     */
    public @Nullable Long getWaitTimeoutMs() {
      return waitTimeoutMs;
    }

    /**
     * Sets the default wait.
     *
     * @param waitTimeoutMs milliseconds
     */
    public void setWaitTimeoutMs(@Nullable Long waitTimeoutMs) {
      this.waitTimeoutMs = waitTimeoutMs;
    }

    /**
     * The wait cap.
     *
     * @return milliseconds, or null for the default
     */
    public @Nullable Long getMaxWaitTimeoutMs() {
      return maxWaitTimeoutMs;
    }

    /**
     * Sets the wait cap.
     *
     * @param maxWaitTimeoutMs milliseconds
     */
    public void setMaxWaitTimeoutMs(@Nullable Long maxWaitTimeoutMs) {
      this.maxWaitTimeoutMs = maxWaitTimeoutMs;
    }

    /**
     * The idle-owner lane.
     *
     * @return the lane, or null for the default
     */
    public @Nullable CompletionDelivery getCompletionDelivery() {
      return completionDelivery;
    }

    /**
     * Sets the idle-owner lane.
     *
     * @param completionDelivery wakeup or quiet
     */
    public void setCompletionDelivery(@Nullable CompletionDelivery completionDelivery) {
      this.completionDelivery = completionDelivery;
    }

    /**
     * The wake budget.
     *
     * @return the count, or null for the default
     */
    public @Nullable Long getMaxConsecutiveWakes() {
      return maxConsecutiveWakes;
    }

    /**
     * Sets the wake budget.
     *
     * @param maxConsecutiveWakes the count
     */
    public void setMaxConsecutiveWakes(@Nullable Long maxConsecutiveWakes) {
      this.maxConsecutiveWakes = maxConsecutiveWakes;
    }

    /**
     * The per-owner job cap.
     *
     * @return the cap, or null for the default
     */
    public @Nullable Long getMaxConcurrentJobsPerOwner() {
      return maxConcurrentJobsPerOwner;
    }

    /**
     * Sets the per-owner job cap.
     *
     * @param maxConcurrentJobsPerOwner the cap
     */
    public void setMaxConcurrentJobsPerOwner(@Nullable Long maxConcurrentJobsPerOwner) {
      this.maxConcurrentJobsPerOwner = maxConcurrentJobsPerOwner;
    }

    /**
     * The controller configuration these properties describe.
     *
     * @return the configuration
     * @throws dev.horae.spi.jobs.JobsException {@code invalid_config} for values out of range
     */
    public JobsControllerConfig toControllerConfig() {
      JobsControllerConfig.Builder b = JobsControllerConfig.builder();
      if (waitTimeoutMs != null) {
        b.waitTimeoutMs(waitTimeoutMs);
      }
      if (maxWaitTimeoutMs != null) {
        b.maxWaitTimeoutMs(maxWaitTimeoutMs);
      }
      if (completionDelivery != null) {
        b.completionDelivery(completionDelivery);
      }
      if (maxConsecutiveWakes != null) {
        b.maxConsecutiveWakes(maxConsecutiveWakes);
      }
      return b.build();
    }

    /**
     * The local job registry's configuration these properties describe.
     *
     * @return the configuration
     */
    public JobServiceConfig toServiceConfig() {
      JobServiceConfig.Builder b = JobServiceConfig.builder();
      if (maxConcurrentJobsPerOwner != null) {
        b.maxConcurrentJobsPerOwner(maxConcurrentJobsPerOwner);
      }
      return b.build();
    }
  }
}
