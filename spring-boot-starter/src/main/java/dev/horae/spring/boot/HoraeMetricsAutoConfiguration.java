package dev.horae.spring.boot;

import dev.horae.micrometer.HoraeMetrics;
import dev.horae.runtime.HoraeRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Binds {@link HoraeMetrics} (the optional {@code horae-micrometer} module) to the application's
 * {@code MeterRegistry}, unless {@code horae.metrics.enabled=false}. The binding waits until every
 * singleton exists, so a registry that Boot's actuator auto-configures is found as well as one the
 * application defines; without a registry nothing is bound.
 */
@AutoConfiguration(after = HoraeAutoConfiguration.class)
@ConditionalOnClass(name = {"dev.horae.micrometer.HoraeMetrics", "io.micrometer.core.instrument.MeterRegistry"})
@ConditionalOnProperty(prefix = "horae.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public class HoraeMetricsAutoConfiguration {

  /** Creates the configuration. */
  public HoraeMetricsAutoConfiguration() {}

  /**
   * The binding of the runtime's meters; closed with the context (which removes its listeners).
   *
   * @param runtime the runtime
   * @param registries the application's registries: the unique or primary one is bound
   * @return the binding
   */
  @Bean
  @ConditionalOnBean(HoraeRuntime.class)
  @ConditionalOnMissingBean
  public HoraeMetricsBinding horaeMetricsBinding(HoraeRuntime runtime, ObjectProvider<MeterRegistry> registries) {
    return new HoraeMetricsBinding(runtime, registries);
  }
}
