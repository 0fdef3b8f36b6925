package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The typed controller configuration: defaults, the builder's checks, and fromJson's equal. */
class JobsControllerConfigTest {

  @Test
  void theDefaultsAreTheSpecsTable() {
    JobsControllerConfig defaults = JobsControllerConfig.defaults();
    assertThat(JobsControllerConfig.builder().build()).isEqualTo(defaults);
    assertThat(JobsControllerConfig.fromJson(Json.parse("{}"))).isEqualTo(defaults);
    assertThat(defaults.waitTimeoutMs()).isEqualTo(30_000);
    assertThat(defaults.maxWaitTimeoutMs()).isEqualTo(600_000);
    assertThat(defaults.completionDelivery()).isEqualTo(CompletionDelivery.WAKEUP);
    assertThat(defaults.maxConsecutiveWakes()).isEqualTo(3);
  }

  @Test
  void theBuilderSetsEachSetting() {
    JobsControllerConfig c = JobsControllerConfig.builder()
        .waitTimeoutMs(5_000).maxWaitTimeoutMs(5_000).completionDelivery(CompletionDelivery.QUIET).maxConsecutiveWakes(1).build();
    assertThat(c).isEqualTo(new JobsControllerConfig(5_000, 5_000, CompletionDelivery.QUIET, 1));
  }

  /**
   * Each invalid setting, built in Java and read from JSON, fails with the same load-time text
   * ({@code _}: the setting is not given).
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|_|_|{\"waitTimeoutMs\":0}|tool-jobs: waitTimeoutMs must be a whole number from 1 to 9007199254740991, got 0",
        "9007199254740992|_|_|{\"waitTimeoutMs\":9007199254740992}|tool-jobs: waitTimeoutMs must be a whole number from 1 to 9007199254740991, got 9007199254740992",
        "_|0|_|{\"maxWaitTimeoutMs\":0}|tool-jobs: maxWaitTimeoutMs must be a whole number from 1 to 9007199254740991, got 0",
        "_|10|_|{\"maxWaitTimeoutMs\":10}|tool-jobs: waitTimeoutMs (30000) exceeds maxWaitTimeoutMs (10)",
        "100|50|_|{\"waitTimeoutMs\":100,\"maxWaitTimeoutMs\":50}|tool-jobs: waitTimeoutMs (100) exceeds maxWaitTimeoutMs (50)",
        "_|_|0|{\"maxConsecutiveWakes\":0}|tool-jobs: maxConsecutiveWakes must be a number of at least 1, got 0",
        "_|_|9007199254740992|{\"maxConsecutiveWakes\":9007199254740992}|tool-jobs: maxConsecutiveWakes (9007199254740992) must be a whole number of turns"
      })
  void eachSettingIsValidatedAsTheJsonPathValidatesIt(String wait, String max, String wakes, String json, String message) {
    JobsControllerConfig.Builder b = JobsControllerConfig.builder();
    if (!wait.equals("_")) {
      b.waitTimeoutMs(Long.parseLong(wait));
    }
    if (!max.equals("_")) {
      b.maxWaitTimeoutMs(Long.parseLong(max));
    }
    if (!wakes.equals("_")) {
      b.maxConsecutiveWakes(Long.parseLong(wakes));
    }
    assertThatThrownBy(b::build)
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
        .hasMessage(message);
    assertThatThrownBy(() -> JobsControllerConfig.fromJson(Json.parse(json)))
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
        .hasMessage(message);
  }

  @Test
  void aSettingGivenTwiceIsRefused() {
    assertTwice("waitTimeoutMs", () -> JobsControllerConfig.builder().waitTimeoutMs(1).waitTimeoutMs(2));
    assertTwice("maxWaitTimeoutMs", () -> JobsControllerConfig.builder().maxWaitTimeoutMs(1).maxWaitTimeoutMs(1));
    assertTwice("completionDelivery",
        () -> JobsControllerConfig.builder().completionDelivery(CompletionDelivery.QUIET).completionDelivery(CompletionDelivery.WAKEUP));
    assertTwice("maxConsecutiveWakes", () -> JobsControllerConfig.builder().maxConsecutiveWakes(2).maxConsecutiveWakes(3));
  }

  private static void assertTwice(String setting, Supplier<JobsControllerConfig.Builder> twice) {
    assertThatThrownBy(twice::get)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(setting + " was already set for this tool-jobs configuration");
  }

  @Test
  void fromJsonMakesWhatTheBuilderMakes() {
    JobsControllerConfig built = JobsControllerConfig.builder()
        .waitTimeoutMs(1_000).maxWaitTimeoutMs(2_000).completionDelivery(CompletionDelivery.QUIET).maxConsecutiveWakes(5).build();
    JobsControllerConfig read = JobsControllerConfig.fromJson(Json.parse(
        "{\"waitTimeoutMs\":1000,\"maxWaitTimeoutMs\":2000.0,\"completionDelivery\":\"quiet\",\"maxConsecutiveWakes\":5}"));
    assertThat(read).isEqualTo(built);
    assertThat(JobsControllerConfig.fromJson(built.toJson())).isEqualTo(built);
  }
}
