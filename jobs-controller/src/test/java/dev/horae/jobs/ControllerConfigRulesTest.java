package dev.horae.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.MissingNode;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import org.junit.jupiter.api.Test;

/**
 * The {@code tool-jobs} configuration (jobs spec §3.2) at the ends of every range and in every
 * step of its check order: each key alone, the cross check ({@code waitTimeoutMs} equal to the
 * maximum is allowed) and the whole-number check of {@code maxConsecutiveWakes}, for JSON and for
 * the record.
 */
class ControllerConfigRulesTest {

  private static JobsControllerConfig parse(String json) {
    return JobsControllerConfig.fromJson(Json.parse(json));
  }

  private static void refused(String json, String message) {
    assertThatThrownBy(() -> parse(json))
        .as(json)
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
        .hasMessage(message);
  }

  @Test
  void anAbsentConfigIsTheDefaults() {
    assertThat(JobsControllerConfig.fromJson(MissingNode.getInstance())).isEqualTo(JobsControllerConfig.defaults());
    assertThat(parse("null")).isEqualTo(JobsControllerConfig.defaults());
    assertThat(parse("{}").toJson().toString()).isEqualTo(
        "{\"waitTimeoutMs\":30000,\"maxWaitTimeoutMs\":600000,\"completionDelivery\":\"wakeup\",\"maxConsecutiveWakes\":3}");
  }

  @Test
  void timeoutsAreWholeNumbersFromOneToTheSafeMaximum() {
    JobsControllerConfig ends = parse("{\"waitTimeoutMs\":1,\"maxWaitTimeoutMs\":9007199254740991}");
    assertThat(ends.waitTimeoutMs()).isEqualTo(1);
    assertThat(ends.maxWaitTimeoutMs()).isEqualTo(9_007_199_254_740_991L);
    String range = " must be a whole number from 1 to 9007199254740991, got ";
    refused("{\"waitTimeoutMs\":0}", "tool-jobs: waitTimeoutMs" + range + "0");
    refused("{\"waitTimeoutMs\":0.5}", "tool-jobs: waitTimeoutMs" + range + "0.5");
    refused("{\"maxWaitTimeoutMs\":9007199254740992}", "tool-jobs: maxWaitTimeoutMs" + range + "9007199254740992");
    refused("{\"maxWaitTimeoutMs\":-1}", "tool-jobs: maxWaitTimeoutMs" + range + "-1");
  }

  @Test
  void theDeliveryLaneIsQuietOrWakeup() {
    assertThat(parse("{\"completionDelivery\":\"quiet\"}").completionDelivery()).isEqualTo(CompletionDelivery.QUIET);
    assertThat(parse("{\"completionDelivery\":\"wakeup\"}").completionDelivery()).isEqualTo(CompletionDelivery.WAKEUP);
    refused("{\"completionDelivery\":\"Wakeup\"}", "tool-jobs: completionDelivery must be \"quiet\" or \"wakeup\", got \"Wakeup\"");
    refused("{\"completionDelivery\":1}", "tool-jobs: completionDelivery must be \"quiet\" or \"wakeup\", got 1");
    refused("{\"completionDelivery\":null}", "tool-jobs: completionDelivery must be \"quiet\" or \"wakeup\", got null");
  }

  @Test
  void wakesAreAtLeastOneAndThenAWholeNumberOfTurns() {
    assertThat(parse("{\"maxConsecutiveWakes\":1}").maxConsecutiveWakes()).isEqualTo(1);
    assertThat(parse("{\"maxConsecutiveWakes\":9007199254740991}").maxConsecutiveWakes()).isEqualTo(9_007_199_254_740_991L);
    refused("{\"maxConsecutiveWakes\":0.5}", "tool-jobs: maxConsecutiveWakes must be a number of at least 1, got 0.5");
    refused("{\"maxConsecutiveWakes\":\"3\"}", "tool-jobs: maxConsecutiveWakes must be a number of at least 1, got \"3\"");
    refused("{\"maxConsecutiveWakes\":2.5}", "tool-jobs: maxConsecutiveWakes (2.5) must be a whole number of turns");
    refused("{\"maxConsecutiveWakes\":9007199254740992}",
        "tool-jobs: maxConsecutiveWakes (9007199254740992) must be a whole number of turns");
  }

  @Test
  void theWaitMayEqualTheMaximumButNotExceedIt() {
    JobsControllerConfig equal = parse("{\"waitTimeoutMs\":5000,\"maxWaitTimeoutMs\":5000}");
    assertThat(equal.waitTimeoutMs()).isEqualTo(5000);
    refused("{\"waitTimeoutMs\":5001,\"maxWaitTimeoutMs\":5000}", "tool-jobs: waitTimeoutMs (5001) exceeds maxWaitTimeoutMs (5000)");
    // the defaults take part: a wait above the default maximum
    refused("{\"waitTimeoutMs\":600001}", "tool-jobs: waitTimeoutMs (600001) exceeds maxWaitTimeoutMs (600000)");
    // the cross check comes before the whole-number check of the wakes
    refused("{\"waitTimeoutMs\":7,\"maxWaitTimeoutMs\":6,\"maxConsecutiveWakes\":1.5}",
        "tool-jobs: waitTimeoutMs (7) exceeds maxWaitTimeoutMs (6)");
  }

  @Test
  void theRecordChecksTheSameRanges() {
    long max = 9_007_199_254_740_991L;
    assertThat(new JobsControllerConfig(1, max, CompletionDelivery.QUIET, max).maxConsecutiveWakes()).isEqualTo(max);
    assertThat(new JobsControllerConfig(7, 7, CompletionDelivery.QUIET, 1).waitTimeoutMs()).isEqualTo(7);
    assertThatThrownBy(() -> new JobsControllerConfig(max + 1, max + 1, CompletionDelivery.QUIET, 1))
        .hasMessage("tool-jobs: waitTimeoutMs must be a whole number from 1 to 9007199254740991, got 9007199254740992");
    assertThatThrownBy(() -> new JobsControllerConfig(1, 0, CompletionDelivery.QUIET, 1))
        .hasMessage("tool-jobs: maxWaitTimeoutMs must be a whole number from 1 to 9007199254740991, got 0");
    assertThatThrownBy(() -> new JobsControllerConfig(1, max + 1, CompletionDelivery.QUIET, 1))
        .hasMessage("tool-jobs: maxWaitTimeoutMs must be a whole number from 1 to 9007199254740991, got 9007199254740992");
    assertThatThrownBy(() -> new JobsControllerConfig(1, 1, CompletionDelivery.QUIET, max + 1))
        .hasMessage("tool-jobs: maxConsecutiveWakes (9007199254740992) must be a whole number of turns");
    assertThatThrownBy(() -> new JobsControllerConfig(8, 7, CompletionDelivery.QUIET, 1))
        .hasMessage("tool-jobs: waitTimeoutMs (8) exceeds maxWaitTimeoutMs (7)");
  }
}
