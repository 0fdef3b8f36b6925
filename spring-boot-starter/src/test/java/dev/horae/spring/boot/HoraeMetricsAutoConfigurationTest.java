package dev.horae.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.micrometer.HoraeMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The starter binds the Horae meters to the application's registry, and only when it has one. */
class HoraeMetricsAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HoraeAutoConfiguration.class, HoraeMetricsAutoConfiguration.class))
      .withPropertyValues("horae.resume-sessions=false");

  /** The application's own registry. */
  @Configuration(proxyBeanMethods = false)
  static class WithRegistry {
    @Bean
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  @Test
  void aRegistryBeanGetsTheHoraeMetersOnce() {
    runner.withUserConfiguration(WithRegistry.class).run(context -> {
      assertThat(context).hasNotFailed();
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(context.getBean(HoraeMetricsBinding.class).metrics()).isPresent();
      assertThat(registry.get(HoraeMetrics.REMINDERS_PENDING).gauge().value()).isZero();
      assertThat(registry.get(HoraeMetrics.RUNS_AWAITING).tags("reason", "toolPermission").gauge().value()).isZero();
      assertThat(registry.get(HoraeMetrics.REMINDERS_DISPATCHED).counter().count()).isZero();
    });
  }

  @Test
  void withoutARegistryNothingIsBound() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(HoraeMetricsBinding.class).metrics()).isEmpty();
    });
  }

  @Test
  void horaeMetricsEnabledFalseLeavesTheRegistryAlone() {
    runner.withUserConfiguration(WithRegistry.class).withPropertyValues("horae.metrics.enabled=false").run(context -> {
      assertThat(context).doesNotHaveBean(HoraeMetricsBinding.class);
      assertThat(context.getBean(MeterRegistry.class).find(HoraeMetrics.REMINDERS_PENDING).gauge()).isNull();
    });
  }
}
