package dev.horae.jobs.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.jobs.JobsController;
import dev.horae.jobs.fakes.TestJob;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobStart;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import dev.horae.testkit.TestHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The typed registry configuration, and the registry created over a host with the defaults. */
class JobServiceConfigTest {

  private static final String LIMIT =
      "jobs: maxConcurrentJobsPerOwner must be a whole number from 1 to 9007199254740991, got ";

  @Test
  void theDefaultLimitIsTen() {
    assertThat(JobServiceConfig.builder().build()).isEqualTo(JobServiceConfig.defaults());
    assertThat(JobServiceConfig.defaults().maxConcurrentJobsPerOwner()).isEqualTo(10);
  }

  @Test
  void theBuilderValidatesTheLimitAsTheJsonPathDoes() {
    assertThat(JobServiceConfig.builder().maxConcurrentJobsPerOwner(1).build().maxConcurrentJobsPerOwner()).isEqualTo(1);
    for (long bad : new long[] {0, -1, 9_007_199_254_740_992L}) {
      assertThatThrownBy(() -> JobServiceConfig.builder().maxConcurrentJobsPerOwner(bad).build())
          .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
          .hasMessage(LIMIT + bad);
      assertThatThrownBy(() -> JobServiceConfig.fromJson(Json.parse("{\"maxConcurrentJobsPerOwner\":" + bad + "}")))
          .hasMessage(LIMIT + bad);
    }
  }

  @Test
  void aSettingGivenTwiceIsRefused() {
    assertThatThrownBy(() -> JobServiceConfig.builder().maxConcurrentJobsPerOwner(1).maxConcurrentJobsPerOwner(2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("maxConcurrentJobsPerOwner was already set for this job service configuration");
  }

  @Test
  void fromJsonMakesWhatTheBuilderMakes() {
    assertThat(JobServiceConfig.fromJson(Json.parse("{\"maxConcurrentJobsPerOwner\":4.0}")))
        .isEqualTo(JobServiceConfig.builder().maxConcurrentJobsPerOwner(4).build());
  }

  @Test
  void aRegistryCreatedOverAHostWithoutAConfigurationAdmitsTheDefaultTen() {
    TestHost host = TestHost.builder().build();
    LocalJobService jobs = LocalJobService.create(host);
    jobs.attachController(Optional.empty(), JobsController.NAME, (snapshot, owner) -> {});
    List<TestJob> running = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      TestJob job = new TestJob();
      running.add(job);
      jobs.start(JobStart.builder("bash", "job " + i, job::stream).build());
    }
    assertThatThrownBy(() -> jobs.start(JobStart.builder("bash", "one too many", new TestJob()::stream).build()))
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.ADMISSION_LIMIT));
    // the hand-driven jobs end only when told to, so the registry's close has something to await
    running.forEach(job -> job.done.complete(JobOutcome.completed(Optional.empty())));
    jobs.close();
  }
}
