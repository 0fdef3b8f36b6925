package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.fuzz.FuzzRun.Verdict;
import dev.horae.jobs.registry.JobServiceConfig;
import dev.horae.jobs.JobsControllerConfig;
import dev.horae.jobs.shell.ShellJobConfig;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.session.Json;
import dev.horae.timecontext.InvalidConfigException;
import dev.horae.timecontext.TimeContextConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The plugin configuration parsers, which read a host's configuration JSON at load time:
 * time-context's ({@link InvalidConfigException}), the jobs controller's, the shell job
 * producer's and the job service's ({@link JobsException} with code {@code invalid_config}).
 * Schedule's plugin takes no configuration, so it has no parser to fuzz. A normalized
 * configuration validates back to itself.
 */
class PluginConfigFuzzTest {

  @FunctionalInterface
  interface Parser {
    Object parse(JsonNode config);
  }

  static FuzzRun.Target config(Parser parser) {
    return input -> {
      JsonNode json;
      try {
        json = Json.parse(FuzzRun.text(input));
      } catch (IllegalArgumentException e) {
        return Verdict.UNPARSABLE;
      }
      try {
        var unused = parser.parse(json);
        return Verdict.VALID;
      } catch (InvalidConfigException e) {
        return Verdict.DOMAIN_ERROR;
      } catch (JobsException e) {
        if (!e.code().equals(JobsException.INVALID_CONFIG)) {
          throw e;
        }
        return Verdict.DOMAIN_ERROR;
      }
    };
  }

  static Object timeContext(JsonNode json) {
    TimeContextConfig.Resolved c = TimeContextConfig.validate(json, Optional.of("Europe/Berlin"));
    assertThat(TimeContextConfig.validate(c.toJson(), Optional.empty())).isEqualTo(c);
    // the typed config parsed from the same JSON resolves to the same value
    assertThat(TimeContextConfig.fromJson(json).resolve(() -> Optional.of("Europe/Berlin"))).isEqualTo(c);
    return c;
  }

  static Object jobsController(JsonNode json) {
    JobsControllerConfig c = JobsControllerConfig.fromJson(json);
    assertThat(JobsControllerConfig.fromJson(c.toJson())).isEqualTo(c);
    return c;
  }

  static List<byte[]> seeds(String fn, String... more) {
    List<String> seeds = new ArrayList<>(List.of(more));
    seeds.addAll(Corpus.args(fn, "config"));
    return FuzzRun.corpus(seeds);
  }

  static List<byte[]> timeContextSeeds() {
    return seeds("timecontext.validateConfig", "{}", "null",
        "{\"timeZone\":\"America/New_York\",\"refreshIntervalMs\":60000,\"clientZoneGuidance\":true}");
  }

  static List<byte[]> jobsSeeds() {
    return seeds("jobs.validateConfig", "{}", "{\"waitTimeoutMs\":1,\"maxWaitTimeoutMs\":9007199254740991,"
        + "\"completionDelivery\":\"quiet\",\"maxConsecutiveWakes\":1e3}");
  }

  static List<byte[]> shellSeeds() {
    return FuzzRun.corpus(List.of("{}", "null",
        "{\"shell\":[\"bash\",\"-c\"],\"workingDirectory\":\"/\",\"environment\":{\"LANG\":\"C\",\"X_1\":\"\"},"
            + "\"retainHeadBytes\":0,\"retainTailBytes\":64,\"killGraceMs\":0,\"drainGraceMs\":5,"
            + "\"outputLimitBytes\":100,\"destroyOnJvmExit\":false}",
        "{\"retainHeadBytes\":8388608,\"retainTailBytes\":8388608,\"outputLimitBytes\":9007199254740991}"));
  }

  static List<byte[]> serviceSeeds() {
    return FuzzRun.corpus(List.of("{}", "null", "{\"maxConcurrentJobsPerOwner\":1}",
        "{\"maxConcurrentJobsPerOwner\":9007199254740991}"));
  }

  @Test
  void timeContextConfig() {
    FuzzRun.assertClean(FuzzRun.run("TimeContextConfig", 41, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        timeContextSeeds(), config(PluginConfigFuzzTest::timeContext)));
  }

  @Test
  void jobsControllerConfig() {
    FuzzRun.assertClean(FuzzRun.run("JobsControllerConfig", 42, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        jobsSeeds(), config(PluginConfigFuzzTest::jobsController)));
  }

  @Test
  void shellJobConfig() {
    FuzzRun.assertClean(FuzzRun.run("ShellJobConfig", 43, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        shellSeeds(), config(ShellJobConfig::fromJson)));
  }

  @Test
  void jobServiceConfig() {
    FuzzRun.assertClean(FuzzRun.run("JobServiceConfig", 44, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET,
        serviceSeeds(), config(JobServiceConfig::fromJson)));
  }

  @Test
  @Tag("slow")
  void configsLong() {
    FuzzRun.assertClean(FuzzRun.run("TimeContextConfig", 141, FuzzRun.LONG, FuzzRun.LONG_BUDGET,
        timeContextSeeds(), config(PluginConfigFuzzTest::timeContext)));
    FuzzRun.assertClean(FuzzRun.run("JobsControllerConfig", 142, FuzzRun.LONG, FuzzRun.LONG_BUDGET,
        jobsSeeds(), config(PluginConfigFuzzTest::jobsController)));
    FuzzRun.assertClean(FuzzRun.run("ShellJobConfig", 143, FuzzRun.LONG, FuzzRun.LONG_BUDGET,
        shellSeeds(), config(ShellJobConfig::fromJson)));
  }
}
