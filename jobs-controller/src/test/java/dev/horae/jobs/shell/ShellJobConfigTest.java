package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShellJobConfigTest {

  @Test
  void readsJsonWithDefaultsFilled() {
    ShellJobConfig c =
        ShellJobConfig.fromJson(
            Json.parse(
                "{\"shell\":[\"sh\",\"-c\"],\"environment\":{\"A\":\"1\"},\"retainHeadBytes\":0,"
                    + "\"retainTailBytes\":64,\"outputLimitBytes\":64,\"destroyOnJvmExit\":false,"
                    + "\"killGraceMs\":10.0}"));
    assertThat(c.shell()).containsExactly("sh", "-c");
    assertThat(c.environment()).isEqualTo(Map.of("A", "1"));
    assertThat(c.retainTailBytes()).isEqualTo(64);
    assertThat(c.outputLimitBytes()).hasValue(64);
    assertThat(c.killGraceMs()).isEqualTo(10);
    assertThat(c.drainGraceMs()).isEqualTo(1000);
    assertThat(c.destroyOnJvmExit()).isFalse();
    assertThat(ShellJobConfig.fromJson(Json.parse("null"))).isEqualTo(ShellJobConfig.defaults());
    assertThat(ShellJobConfig.defaults().shell()).isEqualTo(List.of("bash", "-c"));
  }

  @Test
  void rejectsBadJsonWithExactMessages() {
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"shel\":[]}")))
        .hasMessage("shell-jobs: unknown config key \"shel\"");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"shell\":[\"bash\",3]}")))
        .hasMessage("shell-jobs: shell must be a non-empty list of non-empty strings");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"killGraceMs\":1.5}")))
        .hasMessage("shell-jobs: killGraceMs must be a whole number of at least 0, got 1.5");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"retainTailBytes\":\"64\"}")))
        .hasMessage("shell-jobs: retainTailBytes must be a whole number of at least 64, got \"64\"");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"outputLimitBytes\":0}")))
        .hasMessage(
            "shell-jobs: outputLimitBytes must be a whole number from 1 to 9007199254740991, got 0");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"environment\":{\"A\":1}}")))
        .hasMessage("shell-jobs: environment must map names to strings");
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"destroyOnJvmExit\":1}")))
        .hasMessage("shell-jobs: destroyOnJvmExit must be a boolean, got 1");
  }

  @Test
  void pathsAndVariablesTheOperatingSystemCannotTakeAreLoadErrors() {
    // found by the fuzz module: a NUL in workingDirectory escaped as InvalidPathException
    assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"workingDirectory\":\"/tmp\\u0000x\"}")))
        .isInstanceOf(dev.horae.spi.jobs.JobsException.class)
        .hasMessage("shell-jobs: workingDirectory \"/tmp\\u0000x\" is not a directory");
    // ProcessBuilder would refuse these only when the first job starts
    for (String env : List.of("{\"A=B\":\"1\"}", "{\"\":\"1\"}", "{\"A\\u0000\":\"1\"}", "{\"A\":\"1\\u0000\"}")) {
      assertThatThrownBy(() -> ShellJobConfig.fromJson(Json.parse("{\"environment\":" + env + "}")))
          .as(env)
          .isInstanceOf(dev.horae.spi.jobs.JobsException.class)
          .hasMessage("shell-jobs: environment must map names to strings");
    }
  }
}
