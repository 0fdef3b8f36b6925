package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.MissingNode;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell producer's configuration (jobs spec §7.7) at the ends of every range, for the builder
 * and for JSON: every whole-number key at its minimum and at the safe maximum, the retention sum
 * exactly at its cap, the output cap of §2.2, and the shapes of the directory and environment.
 */
class ShellJobConfigRulesTest {

  private static final long SAFE = 9_007_199_254_740_991L;

  @TempDir Path dir;

  private static void refused(String json, String message) {
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse(json)))
        .as(json)
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
        .hasMessage(message);
  }

  @Test
  void everyBuilderValueIsCheckedAtBothEnds() {
    assertThat(ShellJobConfig.builder().retainHeadBytes(0).retainTailBytes(64).killGraceMs(0).drainGraceMs(0).build().retainHeadBytes()).isZero();
    assertThatThrownBy(() -> ShellJobConfig.builder().retainHeadBytes(-1).retainTailBytes(64).build())
        .hasMessage("shell-jobs: retainHeadBytes must be a whole number of at least 0, got -1");
    assertThatThrownBy(() -> ShellJobConfig.builder().drainGraceMs(-1).build())
        .hasMessage("shell-jobs: drainGraceMs must be a whole number of at least 0, got -1");
    assertThat(ShellJobConfig.builder().killGraceMs(SAFE).drainGraceMs(SAFE).build().killGraceMs()).isEqualTo(SAFE);
    assertThatThrownBy(() -> ShellJobConfig.builder().killGraceMs(SAFE + 1).build())
        .hasMessage("shell-jobs: killGraceMs must be a whole number of at least 0, got 9007199254740992");
    assertThat(ShellJobConfig.builder().retainHeadBytes(16_777_216 - 64).retainTailBytes(64).build().retainTailBytes()).isEqualTo(64);
    assertThatThrownBy(() -> ShellJobConfig.builder().retainHeadBytes(16_777_216 - 63).retainTailBytes(64).build())
        .hasMessage("shell-jobs: retainHeadBytes + retainTailBytes must be at most 16777216");
  }

  @Test
  void theOutputCapIsAWholeNumberFromOneToTheSafeMaximum() {
    assertThat(ShellJobConfig.builder().outputLimitBytes(1).build().outputLimitBytes()).hasValue(1);
    assertThat(ShellJobConfig.builder().outputLimitBytes(SAFE).build().outputLimitBytes()).hasValue(SAFE);
    String range = "shell-jobs: outputLimitBytes must be a whole number from 1 to 9007199254740991, got ";
    assertThatThrownBy(() -> ShellJobConfig.builder().outputLimitBytes(0).build()).hasMessage(range + "0");
    assertThatThrownBy(() -> ShellJobConfig.builder().outputLimitBytes(SAFE + 1).build()).hasMessage(range + "9007199254740992");
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"outputLimitBytes\":1}")).outputLimitBytes()).hasValue(1);
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"outputLimitBytes\":9007199254740991}")).outputLimitBytes()).hasValue(SAFE);
    refused("{\"outputLimitBytes\":9007199254740992}", range + "9007199254740992");
    refused("{\"outputLimitBytes\":1.5}", range + "1.5");
    refused("{\"outputLimitBytes\":\"64\"}", range + "\"64\"");
  }

  @Test
  void jsonWholeNumbersAreCheckedAtTheirMinimumAndTheSafeMaximum() {
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"retainHeadBytes\":0,\"drainGraceMs\":0}")).drainGraceMs()).isZero();
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"killGraceMs\":9007199254740991}")).killGraceMs()).isEqualTo(SAFE);
    refused("{\"retainHeadBytes\":-1}", "shell-jobs: retainHeadBytes must be a whole number of at least 0, got -1");
    refused("{\"retainTailBytes\":63}", "shell-jobs: retainTailBytes must be a whole number of at least 64, got 63");
    refused("{\"drainGraceMs\":9007199254740992}", "shell-jobs: drainGraceMs must be a whole number of at least 0, got 9007199254740992");
  }

  @Test
  void shapesOfTheWholeObjectTheDirectoryAndTheEnvironment() {
    assertThat(ShellJobConfig.fromJson(MissingNode.getInstance())).isEqualTo(ShellJobConfig.defaults());
    refused("[]", "shell-jobs: config must be an object, got []");
    refused("{\"workingDirectory\":5}", "shell-jobs: workingDirectory 5 is not a directory");
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"workingDirectory\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(dir.toString())) + "}"))
        .workingDirectory()).contains(dir);
    refused("{\"environment\":[\"A=1\"]}", "shell-jobs: environment must map names to strings");
    assertThat(ShellJobConfig.fromJson(Json.parse("{\"shell\":[\"sh\",\"-c\"]}")).shell()).isEqualTo(List.of("sh", "-c"));
    refused("{\"shell\":\"bash\"}", "shell-jobs: shell must be a non-empty list of non-empty strings");
  }
}
