package dev.horae.jobs.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobId;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.message.ContentBlock;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.session.Json;
import dev.horae.spi.tool.PresentationCard;
import dev.horae.spi.tool.ToolDefinition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional model-facing tool {@code bash_background} (jobs spec §7.6): starts a shell command
 * as a background job owned by the calling agent and returns its id at once. Hosts with their own
 * shell tool call {@link ShellJobs} directly.
 *
 * <p>Install {@link #create()} or {@link #create(ShellJobConfig)} as a plugin to give the tool to
 * every agent, or register {@link #definition} in one scope. Either way the tool needs the host's
 * {@link JobService} and the {@code tool-jobs} controller at call time, not at load.
 */
public final class BackgroundShellTool implements Plugin {

  /** The tool name, also the plugin name. */
  public static final String NAME = "bash_background";

  private static final String DESCRIPTION =
      "Start a shell command as a background job and return its job id at once. Stdin is closed;"
          + " stdout and stderr are combined. Read its output with job_output, stop it with"
          + " job_kill; you are notified when it finishes.";

  private static final String PARAMETERS =
      "{\"type\":\"object\",\"properties\":{"
          + "\"command\":{\"type\":\"string\",\"description\":\"Shell command to run in the"
          + " background with bash -c.\"},"
          + "\"description\":{\"type\":\"string\",\"description\":\"Short description of what the"
          + " command does, for display.\"}},"
          + "\"required\":[\"command\"]}";

  private static final String OUTPUT =
      "{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"background\"},"
          + "\"jobId\":{\"type\":\"string\"}},\"required\":[\"kind\",\"jobId\"],"
          + "\"additionalProperties\":false}";

  private final ShellJobConfig config;

  private BackgroundShellTool(ShellJobConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * The plugin with the default shell producer configuration ({@link ShellJobConfig#defaults()}).
   *
   * @return the plugin
   */
  public static BackgroundShellTool create() {
    return new BackgroundShellTool(ShellJobConfig.defaults());
  }

  /**
   * The plugin with a shell producer configuration, typed ({@link ShellJobConfig#builder()}) or
   * read from a configuration file ({@link ShellJobConfig#fromJson}).
   *
   * @param config the validated configuration
   * @return the plugin
   */
  public static BackgroundShellTool create(ShellJobConfig config) {
    return new BackgroundShellTool(config);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Registers the tool with the host's tool registry, visible to every agent.
   *
   * @param host the host
   * @return the installation; closing it removes the tool (running jobs keep running)
   */
  @Override
  public Installation install(Host host) {
    Registration tool = host.tools().register(definition(host, config));
    return () -> {
      tool.close();
      return CompletableFuture.completedFuture(null);
    };
  }

  /**
   * Builds the tool for a registration of the caller's choosing, for instance in one preset's
   * scope. The host's {@link JobService} is looked up at each call, so the tool reports a missing
   * service as an error result instead of failing to load.
   *
   * @param host the host (job service, timers)
   * @param config the shell producer configuration
   * @return the definition; register it with the host's tool registry or a scope
   */
  public static ToolDefinition definition(Host host, ShellJobConfig config) {
    Producers producers = new Producers(host, config);
    return ToolDefinition.builder(NAME)
        .description(DESCRIPTION)
        .parameters(Json.parse(PARAMETERS))
        .output(Json.parse(OUTPUT))
        .renderer(
            v -> List.of(new ContentBlock("started background job " + v.path("jobId").asText())))
        .presentCall(BackgroundShellTool::card)
        .body(
            (args, exec) -> {
              String command = args.path("command").asText("");
              if (command.isEmpty()) {
                throw new JobsException(
                    JobsException.INVALID_ARGUMENT,
                    "invalid command: expected a non-empty string, got \"\"");
              }
              ShellJobs shells = producers.forCurrentService();
              if (exec.signal().aborted()) {
                throw new JobsException(
                    JobsException.INVALID_ARGUMENT,
                    "background job not started: the call was aborted");
              }
              JobId id = shells.start(command, Optional.of(exec.agent()));
              ObjectNode value = JsonNodeFactory.instance.objectNode();
              value.put("kind", "background");
              value.put("jobId", id.value());
              return CompletableFuture.completedFuture(value);
            })
        .build();
  }

  private static Optional<PresentationCard> card(JsonNode args) {
    JsonNode command = args.path("command");
    if (!command.isTextual()) {
      return Optional.empty();
    }
    String text = command.asText();
    String shown = text.length() > 80 ? text.substring(0, 80) : text;
    return Optional.of(
        new PresentationCard("Run in background: " + shown, "execute", Optional.empty()));
  }

  /** One producer per job service instance the host offers over time. */
  private static final class Producers {
    private final Host host;
    private final ShellJobConfig config;
    private @Nullable JobService service;
    private @Nullable ShellJobs shells;

    Producers(Host host, ShellJobConfig config) {
      this.host = host;
      this.config = config;
    }

    synchronized ShellJobs forCurrentService() {
      JobService current =
          host.service(JobService.class)
              .orElseThrow(
                  () ->
                      new JobsException(
                          JobsException.CONTROLLER_UNAVAILABLE,
                          "background jobs unavailable: load the jobs service and the tool-jobs"
                              + " controller"));
      ShellJobs existing = shells;
      if (existing != null && service == current) {
        return existing;
      }
      ShellJobs fresh = ShellJobs.create(config, current, host.timers());
      service = current;
      shells = fresh;
      return fresh;
    }
  }
}
