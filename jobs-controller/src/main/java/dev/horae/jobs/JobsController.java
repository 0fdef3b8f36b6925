package dev.horae.jobs;

import dev.horae.jobs.internal.JobTools;
import dev.horae.jobs.internal.NoticeDelivery;
import dev.horae.jobs.internal.OutputCaps;
import dev.horae.spi.Registration;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.jobs.PromptSection;
import dev.horae.spi.jobs.PromptSections;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.plugin.Host;
import dev.horae.spi.plugin.Installation;
import dev.horae.spi.plugin.Plugin;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code tool-jobs} controller plugin (jobs spec §3–§6): the tools {@code job_output}, {@code
 * job_list} and {@code job_kill}, completion notices with a bounded wake budget, output caps and
 * the background-jobs system-prompt section. Loading it attaches the controller that {@code
 * JobService.start} requires.
 *
 * <p>The controller needs the host's job registry, which is a host-bound service rather than a
 * plugin: provide one (for example {@link dev.horae.jobs.registry.LocalJobService#create(Host)})
 * as the host's {@link JobService} first. Then install {@link #create()} or {@link
 * #create(JobsControllerConfig)} as a {@link Plugin} for one unscoped mount that serves every
 * agent, or call {@link #mount} once per preset scope; the registry then routes each settlement
 * to the nearest mount, so an agent reads exactly one notice per completion however many presets
 * are mounted.
 */
public final class JobsController implements Plugin {

  /** The plugin name. */
  public static final String NAME = "tool-jobs";

  /** Name of the system-prompt section. */
  public static final String SECTION_NAME = "tool:jobs";

  /** Order of the system-prompt section. */
  public static final int SECTION_ORDER = 106;

  /** The exact system-prompt section text (§6). */
  public static final String SECTION_TEXT =
      "Track every background job id you start. You are notified in-session when a job finishes"
          + " \u2014 do not busy-poll or sleep on one; keep working on independent steps and do"
          + " not duplicate a running job's work. Before giving a final answer, collect every"
          + " still-relevant job with job_output (set wait: true only when you are genuinely"
          + " blocked on it), and job_kill jobs that stopped mattering.";

  private final JobsControllerConfig config;

  private JobsController(JobsControllerConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * The plugin for one unscoped mount, with the default configuration.
   *
   * @return the plugin
   */
  public static JobsController create() {
    return new JobsController(JobsControllerConfig.defaults());
  }

  /**
   * The plugin for one unscoped mount, with a configuration typed ({@link
   * JobsControllerConfig#builder()}) or read from a configuration file ({@link
   * JobsControllerConfig#fromJson}).
   *
   * @param config the validated configuration
   * @return the plugin
   */
  public static JobsController create(JobsControllerConfig config) {
    return new JobsController(config);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Installs an unscoped mount: the host must offer a {@link JobService}; a {@link
   * PromptSections} registry is used when offered.
   *
   * @param host the host
   * @return the installation; closing it unloads the mount (running jobs keep running)
   * @throws CompositionException when the host offers no job service
   */
  @Override
  public Installation install(Host host) {
    JobService service =
        host.service(JobService.class)
            .orElseThrow(
                () ->
                    new CompositionException(
                        "tool-jobs requires a job service: provide a JobService (for example"
                            + " LocalJobService) to the host"));
    Registration mount = mount(config, service, host, Optional.empty());
    return () -> {
      mount.close();
      return CompletableFuture.completedFuture(null);
    };
  }

  /**
   * Mounts the controller in one scope (a preset's scope) or unscoped. Load order (§3.1):
   * inbox-claimed refill (lazily, per woken owner), the prepended pre-execute hook, the controller
   * attachment, the system-prompt section, the three tools.
   *
   * @param config the validated configuration
   * @param service the host's job registry
   * @param host the host (tools, messages, optional prompt sections)
   * @param scope the mount scope; empty for an unscoped mount serving every agent
   * @return a handle that unloads the mount, in reverse order
   */
  public static Registration mount(
      JobsControllerConfig config, JobService service, Host host, Optional<Scope> scope) {
    List<Registration> undo = new ArrayList<>();
    NoticeDelivery delivery = new NoticeDelivery(service, config, host.messages());
    undo.add(delivery::close);
    OutputCaps caps = new OutputCaps(service);
    JobTools tools = new JobTools(service, config, caps);
    List<ToolDefinition> definitions = tools.definitions();
    try {
      undo.add(
          host.tools()
              .onPreExecute(
                  invocation -> {
                    // only calls that resolve to this mount's own definitions are ours to cap
                    Optional<ToolDefinition> target =
                        host.tools().find(invocation.agent(), invocation.call().toolId());
                    if (target.isPresent() && definitions.contains(target.get())) {
                      caps.capture(invocation);
                    }
                  },
                  true));
      undo.add(service.attachController(scope, NAME, delivery));
      host.service(PromptSections.class)
          .ifPresent(
              sections ->
                  undo.add(
                      sections.register(
                          scope, new PromptSection(SECTION_NAME, SECTION_ORDER, SECTION_TEXT))));
      for (ToolDefinition d : definitions) {
        undo.add(scope.isPresent() ? scope.get().registerTool(d) : host.tools().register(d));
      }
    } catch (RuntimeException e) {
      closeAll(undo);
      throw e;
    }
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        closeAll(undo);
      }
    };
  }

  private static void closeAll(List<Registration> undo) {
    for (int i = undo.size() - 1; i >= 0; i--) {
      undo.get(i).close();
    }
  }
}
