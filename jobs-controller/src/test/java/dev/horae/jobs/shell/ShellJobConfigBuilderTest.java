package dev.horae.jobs.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed shell producer configuration: defaults, the builder's checks, and fromJson's equal. */
class ShellJobConfigBuilderTest {

  @Test
  void theDefaultsAreTheSpecsTable() {
    ShellJobConfig d = ShellJobConfig.builder().build();
    assertThat(d).isEqualTo(ShellJobConfig.defaults()).isEqualTo(ShellJobConfig.fromJson(Json.parse("{}")));
    assertThat(d.shell()).containsExactly("bash", "-c");
    assertThat(d.workingDirectory()).isEmpty();
    assertThat(d.environment()).isEmpty();
    assertThat(d.retainHeadBytes()).isEqualTo(8192);
    assertThat(d.retainTailBytes()).isEqualTo(24576);
    assertThat(d.killGraceMs()).isEqualTo(2000);
    assertThat(d.drainGraceMs()).isEqualTo(1000);
    assertThat(d.outputLimitBytes()).isEqualTo(OptionalLong.empty());
    assertThat(d.destroyOnJvmExit()).isTrue();
  }

  @Test
  void eachSettingIsValidatedWithTheLoadTimeMessageNamingIt() {
    assertInvalid("shell-jobs: shell must be a non-empty list of non-empty strings", () -> ShellJobConfig.builder().shell(List.of()));
    assertInvalid("shell-jobs: shell must be a non-empty list of non-empty strings", () -> ShellJobConfig.builder().shell(List.of("sh", "")));
    assertInvalid("shell-jobs: workingDirectory /nonexistent-dir is not a directory",
        () -> ShellJobConfig.builder().workingDirectory(Path.of("/nonexistent-dir")));
    assertInvalid("shell-jobs: retainHeadBytes must be a whole number of at least 0, got -1", () -> ShellJobConfig.builder().retainHeadBytes(-1));
    assertInvalid("shell-jobs: retainTailBytes must be a whole number of at least 64, got 63", () -> ShellJobConfig.builder().retainTailBytes(63));
    assertInvalid("shell-jobs: retainHeadBytes + retainTailBytes must be at most 16777216",
        () -> ShellJobConfig.builder().retainHeadBytes(16_777_216 - 63).retainTailBytes(64));
    assertInvalid("shell-jobs: killGraceMs must be a whole number of at least 0, got -1", () -> ShellJobConfig.builder().killGraceMs(-1));
    assertInvalid("shell-jobs: drainGraceMs must be a whole number of at least 0, got -1", () -> ShellJobConfig.builder().drainGraceMs(-1));
    assertInvalid("shell-jobs: outputLimitBytes must be a whole number from 1 to 9007199254740991, got 0",
        () -> ShellJobConfig.builder().outputLimitBytes(0));
  }

  private static void assertInvalid(String message, Supplier<ShellJobConfig.Builder> builder) {
    assertThatThrownBy(() -> builder.get().build())
        .isInstanceOfSatisfying(JobsException.class, e -> assertThat(e.code()).isEqualTo(JobsException.INVALID_CONFIG))
        .hasMessage(message);
  }

  @Test
  void aSettingGivenTwiceIsRefused() {
    ShellJobConfig.Builder b = ShellJobConfig.builder()
        .shell(List.of("sh", "-c")).workingDirectory(Path.of(".")).environment(Map.of()).retainHeadBytes(0).retainTailBytes(64)
        .killGraceMs(0).drainGraceMs(0).outputLimitBytes(1).destroyOnJvmExit(false);
    assertTwice("shell", () -> b.shell(List.of("sh", "-c")));
    assertTwice("workingDirectory", () -> b.workingDirectory(Path.of(".")));
    assertTwice("environment", () -> b.environment(Map.of()));
    assertTwice("retainHeadBytes", () -> b.retainHeadBytes(0));
    assertTwice("retainTailBytes", () -> b.retainTailBytes(64));
    assertTwice("killGraceMs", () -> b.killGraceMs(0));
    assertTwice("drainGraceMs", () -> b.drainGraceMs(0));
    assertTwice("outputLimitBytes", () -> b.outputLimitBytes(1));
    assertTwice("destroyOnJvmExit", () -> b.destroyOnJvmExit(false));
  }

  private static void assertTwice(String setting, Runnable again) {
    assertThatThrownBy(again::run)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(setting + " was already set for this shell-jobs configuration");
  }

  @Test
  void fromJsonMakesWhatTheBuilderMakes(@TempDir Path dir) {
    ShellJobConfig built = ShellJobConfig.builder()
        .shell(List.of("sh", "-c")).workingDirectory(dir).environment(Map.of("A", "1")).retainHeadBytes(0).retainTailBytes(64)
        .killGraceMs(10).drainGraceMs(20).outputLimitBytes(4096).destroyOnJvmExit(false).build();
    ShellJobConfig read = ShellJobConfig.fromJson(Json.parse(
        "{\"shell\":[\"sh\",\"-c\"],\"workingDirectory\":" + Json.write(Json.mapper().getNodeFactory().textNode(dir.toString()))
            + ",\"environment\":{\"A\":\"1\"},\"retainHeadBytes\":0,\"retainTailBytes\":64,\"killGraceMs\":10,"
            + "\"drainGraceMs\":20.0,\"outputLimitBytes\":4096,\"destroyOnJvmExit\":false}"));
    assertThat(read).isEqualTo(built);
  }
}
