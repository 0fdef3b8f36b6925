package dev.horae.jobs.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.json.EcmaJson;
import dev.horae.spi.json.EcmaNumbers;
import dev.horae.spi.plugin.OnceSettings;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Configuration of the shell job producer (jobs spec §7.7), typed: build it with {@link
 * #builder()}, take the {@link #defaults()}, or read a configuration file's object with {@link
 * #fromJson}. The constructor validates every key with the specified load-time messages.
 *
 * @param shell the shell command prefix; the job's command text is appended as one argument
 * @param workingDirectory the directory processes start in; empty for the JVM's
 * @param environment overrides on top of the inherited environment
 * @param retainHeadBytes bytes kept from the start of an unread window
 * @param retainTailBytes bytes kept from the end of an unread window
 * @param killGraceMs delay between the termination request and the forced kill
 * @param drainGraceMs how long to wait for end of output after the root process exited
 * @param outputLimitBytes the cap given to every shell job, if any
 * @param destroyOnJvmExit whether a JVM shutdown hook forcibly destroys live process trees
 */
public record ShellJobConfig(
    List<String> shell,
    Optional<Path> workingDirectory,
    Map<String, String> environment,
    long retainHeadBytes,
    long retainTailBytes,
    long killGraceMs,
    long drainGraceMs,
    OptionalLong outputLimitBytes,
    boolean destroyOnJvmExit) {

  /** Largest head + tail retention. */
  public static final long MAX_RETAINED = 16_777_216;

  private static final List<String> KEYS =
      List.of(
          "shell",
          "workingDirectory",
          "environment",
          "retainHeadBytes",
          "retainTailBytes",
          "killGraceMs",
          "drainGraceMs",
          "outputLimitBytes",
          "destroyOnJvmExit");

  /**
   * Validates the configuration.
   *
   * @throws JobsException {@code invalid_config} with the exact load-time message
   */
  public ShellJobConfig {
    shell = List.copyOf(shell);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(outputLimitBytes, "outputLimitBytes");
    if (shell.isEmpty() || shell.stream().anyMatch(String::isEmpty)) {
      throw fail("shell-jobs: shell must be a non-empty list of non-empty strings");
    }
    // ProcessBuilder refuses such a name or value only when a job starts; refuse it at load
    for (Map.Entry<String, String> e : environment.entrySet()) {
      if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0 || e.getKey().indexOf('\u0000') >= 0
          || e.getValue().indexOf('\u0000') >= 0) {
        throw fail("shell-jobs: environment must map names to strings");
      }
    }
    if (workingDirectory.isPresent() && !Files.isDirectory(workingDirectory.get())) {
      throw fail("shell-jobs: workingDirectory " + workingDirectory.get() + " is not a directory");
    }
    atLeast("retainHeadBytes", retainHeadBytes, 0);
    atLeast("retainTailBytes", retainTailBytes, 64);
    atLeast("killGraceMs", killGraceMs, 0);
    atLeast("drainGraceMs", drainGraceMs, 0);
    if (retainHeadBytes + retainTailBytes > MAX_RETAINED) {
      throw fail("shell-jobs: retainHeadBytes + retainTailBytes must be at most 16777216");
    }
    if (outputLimitBytes.isPresent()
        && (outputLimitBytes.getAsLong() < 1 || outputLimitBytes.getAsLong() > EcmaNumbers.MAX_SAFE_INTEGER)) {
      throw fail(
          "shell-jobs: outputLimitBytes must be a whole number from 1 to 9007199254740991, got "
              + outputLimitBytes.getAsLong());
    }
  }

  /**
   * The defaults: {@code bash -c}, JVM directory, no overrides, 8192 / 24576 retained bytes, 2000
   * ms kill grace, 1000 ms drain grace, no cap, destroy on JVM exit.
   *
   * @return the default configuration
   */
  public static ShellJobConfig defaults() {
    return builder().build();
  }

  /**
   * Starts a builder holding the defaults.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads a JSON configuration object; missing keys take their defaults.
   *
   * @param json the raw configuration; JSON null or missing means the defaults
   * @return the validated configuration, equal to the one the builder makes from the same
   *     settings
   * @throws JobsException {@code invalid_config} with the exact load-time message
   */
  public static ShellJobConfig fromJson(JsonNode json) {
    if (json.isNull() || json.isMissingNode()) {
      return defaults();
    }
    if (!json.isObject()) {
      throw fail("shell-jobs: config must be an object, got " + EcmaJson.write(json));
    }
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!KEYS.contains(key)) {
        throw fail("shell-jobs: unknown config key " + EcmaJson.write(TextNode.valueOf(key)));
      }
    }
    Builder b = builder();
    JsonNode shell = json.get("shell");
    if (shell != null) {
      List<String> parts = new ArrayList<>();
      if (shell.isArray()) {
        shell.forEach(p -> parts.add(p.isTextual() ? p.asText() : ""));
      }
      b.shell(parts);
    }
    JsonNode dir = json.get("workingDirectory");
    if (dir != null) {
      if (!dir.isTextual()) {
        throw fail("shell-jobs: workingDirectory " + EcmaJson.write(dir) + " is not a directory");
      }
      try {
        b.workingDirectory(Path.of(dir.asText()));
      } catch (InvalidPathException e) {
        // a NUL or another character the file system cannot name: no such directory
        throw fail("shell-jobs: workingDirectory " + EcmaJson.write(dir) + " is not a directory");
      }
    }
    JsonNode env = json.get("environment");
    if (env != null) {
      Map<String, String> vars = new LinkedHashMap<>();
      if (!env.isObject()) {
        throw fail("shell-jobs: environment must map names to strings");
      }
      for (Map.Entry<String, JsonNode> e : env.properties()) {
        if (!e.getValue().isTextual()) {
          throw fail("shell-jobs: environment must map names to strings");
        }
        vars.put(e.getKey(), e.getValue().asText());
      }
      b.environment(vars);
    }
    b.retainHeadBytes(whole(json, "retainHeadBytes", 0, 8192));
    b.retainTailBytes(whole(json, "retainTailBytes", 64, 24576));
    b.killGraceMs(whole(json, "killGraceMs", 0, 2000));
    b.drainGraceMs(whole(json, "drainGraceMs", 0, 1000));
    JsonNode limit = json.get("outputLimitBytes");
    if (limit != null) {
      double d = limit.isNumber() ? limit.doubleValue() : Double.NaN;
      if (!(d >= 1 && d <= EcmaNumbers.MAX_SAFE_INTEGER && d == Math.rint(d))) {
        throw fail(
            "shell-jobs: outputLimitBytes must be a whole number from 1 to 9007199254740991, got "
                + EcmaJson.write(limit));
      }
      b.outputLimitBytes((long) d);
    }
    JsonNode destroy = json.get("destroyOnJvmExit");
    if (destroy != null) {
      if (!destroy.isBoolean()) {
        throw fail("shell-jobs: destroyOnJvmExit must be a boolean, got " + EcmaJson.write(destroy));
      }
      b.destroyOnJvmExit(destroy.booleanValue());
    }
    return b.build();
  }

  private static long whole(JsonNode json, String key, long min, long fallback) {
    JsonNode v = json.get(key);
    if (v == null) {
      return fallback;
    }
    double d = v.isNumber() ? v.doubleValue() : Double.NaN;
    if (!(d >= min && d <= EcmaNumbers.MAX_SAFE_INTEGER && d == Math.rint(d))) {
      throw fail(
          "shell-jobs: "
              + key
              + " must be a whole number of at least "
              + min
              + ", got "
              + EcmaJson.write(v));
    }
    return (long) d;
  }

  private static void atLeast(String key, long value, long min) {
    if (value < min || value > EcmaNumbers.MAX_SAFE_INTEGER) {
      throw fail(
          "shell-jobs: " + key + " must be a whole number of at least " + min + ", got " + value);
    }
  }

  private static JobsException fail(String message) {
    return new JobsException(JobsException.INVALID_CONFIG, message);
  }

  /**
   * Builds a {@link ShellJobConfig}. Each setting may be given once; a second call throws {@code
   * IllegalStateException: <setting> was already set for this shell-jobs configuration}. {@link
   * #build()} validates every setting.
   */
  public static final class Builder {
    private final OnceSettings given = new OnceSettings("shell-jobs configuration");
    private List<String> shell = List.of("bash", "-c");
    private Optional<Path> workingDirectory = Optional.empty();
    private Map<String, String> environment = Map.of();
    private long retainHeadBytes = 8192;
    private long retainTailBytes = 24576;
    private long killGraceMs = 2000;
    private long drainGraceMs = 1000;
    private OptionalLong outputLimitBytes = OptionalLong.empty();
    private boolean destroyOnJvmExit = true;

    private Builder() {}

    /**
     * Sets the shell prefix; the job's command text is appended as one argument. Default {@code
     * ["bash", "-c"]}.
     *
     * @param value a non-empty list of non-empty strings
     * @return this builder
     */
    public Builder shell(List<String> value) {
      given.mark("shell");
      shell = Objects.requireNonNull(value, "shell");
      return this;
    }

    /**
     * Sets the directory processes start in. Default: the JVM's working directory.
     *
     * @param value an existing directory
     * @return this builder
     */
    public Builder workingDirectory(Path value) {
      given.mark("workingDirectory");
      workingDirectory = Optional.of(value);
      return this;
    }

    /**
     * Sets overrides on top of the inherited environment. Default: none.
     *
     * @param value name → value
     * @return this builder
     */
    public Builder environment(Map<String, String> value) {
      given.mark("environment");
      environment = Objects.requireNonNull(value, "environment");
      return this;
    }

    /**
     * Sets the bytes kept from the start of an unread window (§7.2). Default 8192.
     *
     * @param value a whole number of at least 0; head + tail at most 16777216
     * @return this builder
     */
    public Builder retainHeadBytes(long value) {
      given.mark("retainHeadBytes");
      retainHeadBytes = value;
      return this;
    }

    /**
     * Sets the bytes kept from the end of an unread window (§7.2). Default 24576.
     *
     * @param value a whole number of at least 64; head + tail at most 16777216
     * @return this builder
     */
    public Builder retainTailBytes(long value) {
      given.mark("retainTailBytes");
      retainTailBytes = value;
      return this;
    }

    /**
     * Sets the delay between the termination request and the forced kill of the process tree.
     * Default 2000.
     *
     * @param value milliseconds, a whole number of at least 0
     * @return this builder
     */
    public Builder killGraceMs(long value) {
      given.mark("killGraceMs");
      killGraceMs = value;
      return this;
    }

    /**
     * Sets how long to wait for the end of output after the root process exited. Default 1000.
     *
     * @param value milliseconds, a whole number of at least 0
     * @return this builder
     */
    public Builder drainGraceMs(long value) {
      given.mark("drainGraceMs");
      drainGraceMs = value;
      return this;
    }

    /**
     * Sets the output cap given to every shell job. Default: no cap.
     *
     * @param value bytes, 1 … 9007199254740991
     * @return this builder
     */
    public Builder outputLimitBytes(long value) {
      given.mark("outputLimitBytes");
      outputLimitBytes = OptionalLong.of(value);
      return this;
    }

    /**
     * Sets whether a JVM shutdown hook forcibly destroys live process trees. Default true.
     *
     * @param value the flag
     * @return this builder
     */
    public Builder destroyOnJvmExit(boolean value) {
      given.mark("destroyOnJvmExit");
      destroyOnJvmExit = value;
      return this;
    }

    /**
     * Builds and validates the configuration.
     *
     * @return the configuration
     * @throws JobsException {@code invalid_config} with the exact load-time message of the first
     *     invalid setting, e.g. {@code shell-jobs: retainTailBytes must be a whole number of at
     *     least 64, got 10}
     */
    public ShellJobConfig build() {
      return new ShellJobConfig(
          shell,
          workingDirectory,
          environment,
          retainHeadBytes,
          retainTailBytes,
          killGraceMs,
          drainGraceMs,
          outputLimitBytes,
          destroyOnJvmExit);
    }
  }
}
