package dev.horae.spring.boot;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.registry.LocalJobService;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.spi.gate.ToolGate;
import dev.horae.spi.jobs.JobService;
import dev.horae.spi.model.ModelPort;
import dev.horae.spi.plugin.Plugin;
import dev.horae.springai.SpringAiModelPort;
import dev.horae.springai.SpringAiTools;
import org.springframework.ai.tool.ToolCallback;
import dev.horae.timecontext.plugin.TimeContextPlugin;
import java.util.List;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * The Horae runtime as a Spring Boot application's bean.
 *
 * <ul>
 *   <li>{@link HoraeRuntime}: the file store under {@code horae.data-dir} (memory only without it),
 *       the model from a {@code ModelPort} bean or else a {@link SpringAiModelPort} over the unique
 *       {@code ChatModel} bean, then every {@link HoraeRuntimeCustomizer}; the {@link Plugin} beans
 *       are installed in their order (a local job registry is offered first when the jobs
 *       controller is among them and no {@code JobService} exists), the {@link ToolGate} beans
 *       registered in theirs, and every Spring AI {@code ToolCallback} bean registered as a Horae
 *       tool ({@link SpringAiTools});
 *   <li>plugin beans for time-context, Schedule and the jobs controller, from the {@code
 *       horae.time-context.*}, {@code horae.schedule.*} and {@code horae.jobs.*} properties;
 *   <li>{@link HoraeRuntimeLifecycle}: stored sessions resumed at start, unprompted replies
 *       published as {@link UnpromptedReplyEvent}s, the runtime closed at stop.
 * </ul>
 *
 * <p>Each bean backs off when the application defines one of the same type.
 */
@AutoConfiguration
@ConditionalOnClass(HoraeRuntime.class)
@EnableConfigurationProperties(HoraeProperties.class)
public class HoraeAutoConfiguration {

  /** Creates the configuration. */
  public HoraeAutoConfiguration() {}

  /**
   * The time-context plugin from {@code horae.time-context.*}.
   *
   * @param properties the properties
   * @return the plugin
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "horae.time-context", name = "enabled", havingValue = "true", matchIfMissing = true)
  public TimeContextPlugin horaeTimeContextPlugin(HoraeProperties properties) {
    return TimeContextPlugin.create(properties.getTimeContext().toConfig());
  }

  /**
   * The Schedule plugin.
   *
   * @return the plugin
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "horae.schedule", name = "enabled", havingValue = "true", matchIfMissing = true)
  public SchedulePlugin horaeSchedulePlugin() {
    return SchedulePlugin.create();
  }

  /**
   * The jobs controller from {@code horae.jobs.*}.
   *
   * @param properties the properties
   * @return the plugin
   */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "horae.jobs", name = "enabled", havingValue = "true", matchIfMissing = true)
  public JobsController horaeJobsController(HoraeProperties properties) {
    return JobsController.create(properties.getJobs().toControllerConfig());
  }

  /**
   * The runtime, with the plugins installed and the gates registered; closed by {@link
   * HoraeRuntimeLifecycle}, so no destroy method of its own.
   *
   * @param properties the properties
   * @param ports a model port bean, if any
   * @param chatModels the chat model beans
   * @param customizers the customizers, in order
   * @param plugins the plugin beans, in order
   * @param gates the gate beans, in order
   * @param callbacks the Spring AI tool callback beans, registered as Horae tools
   * @return the runtime
   */
  @Bean(destroyMethod = "")
  @ConditionalOnMissingBean
  public HoraeRuntime horaeRuntime(HoraeProperties properties, ObjectProvider<ModelPort> ports,
      ObjectProvider<ChatModel> chatModels, ObjectProvider<HoraeRuntimeCustomizer> customizers,
      ObjectProvider<Plugin> plugins, ObjectProvider<ToolGate> gates, ObjectProvider<ToolCallback> callbacks) {
    HoraeRuntime.Builder builder = HoraeRuntime.builder();
    if (properties.getDataDir() != null) {
      builder.dataDir(properties.getDataDir());
    }
    ModelPort port = ports.getIfUnique();
    if (port == null) {
      ChatModel chat = chatModels.getIfUnique();
      if (chat != null) {
        port = SpringAiModelPort.of(chat);
      }
    }
    if (port != null) {
      builder.model(port);
    }
    customizers.orderedStream().forEach(c -> c.customize(builder));
    HoraeRuntime runtime = builder.build();
    try {
      List<Plugin> ordered = plugins.orderedStream().toList();
      if (ordered.stream().anyMatch(p -> p instanceof JobsController) && runtime.service(JobService.class).isEmpty()) {
        LocalJobService jobs = LocalJobService.create(properties.getJobs().toServiceConfig(), runtime);
        runtime.provide(JobService.class, jobs);
        runtime.closeOnShutdown(() -> jobs.closeAsync().toCompletableFuture().join());
      }
      ordered.forEach(runtime::install);
      gates.orderedStream().forEach(g -> runtime.closeOnShutdown(runtime.gates().register(g)));
      // the application's own tools go through the gates, validation and bounds like Horae's
      ToolCallback[] own = callbacks.orderedStream().toArray(ToolCallback[]::new);
      if (own.length > 0) {
        runtime.closeOnShutdown(SpringAiTools.register(runtime.tools(), own));
      }
    } catch (RuntimeException e) {
      // a bad plugin configuration fails the context; the store it opened is released
      runtime.close();
      throw e;
    }
    return runtime;
  }

  /**
   * Binds the runtime to the application lifecycle.
   *
   * @param runtime the runtime
   * @param properties the properties
   * @param events where unprompted replies are published
   * @return the lifecycle bean
   */
  @Bean
  @ConditionalOnMissingBean
  public HoraeRuntimeLifecycle horaeRuntimeLifecycle(HoraeRuntime runtime, HoraeProperties properties,
      ApplicationEventPublisher events) {
    return new HoraeRuntimeLifecycle(runtime, properties.isResumeSessions(), events);
  }
}
