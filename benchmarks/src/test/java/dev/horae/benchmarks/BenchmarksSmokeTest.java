package dev.horae.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs each benchmark of the documented groups once, in this JVM, for one short measurement
 * on the smallest inputs: proof that the generated harness, the setups and the measured code all
 * work, not a measurement.
 */
@Tag("slow")
class BenchmarksSmokeTest {

  @Test
  void everyBenchmarkRunsOneShortIteration() throws RunnerException {
    Options options =
        new OptionsBuilder()
            .include(
                BenchmarksSmokeTest.class.getPackageName()
                    + "\\.(Codec|Fold|Gate|PreStep|ScheduleScale|ScheduleBurst|ScheduleToolLatency|Timers|Turn)Benchmark\\..*")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(100))
            .param("events", "1000")
            .param("timers", "1000")
            .param("active", "1000")
            .param("count", "200")
            .param("spreadMs", "0")
            .timeUnit(TimeUnit.MICROSECONDS)
            .shouldFailOnError(true)
            .build();

    Collection<RunResult> results = new Runner(options).run();

    assertThat(results)
        .extracting(r -> r.getParams().getBenchmark().replaceFirst(".*\\.benchmarks\\.", ""))
        .containsExactlyInAnyOrder(
            "CodecBenchmark.decodeCreate",
            "CodecBenchmark.decodeDispatch",
            "CodecBenchmark.encodeCreate",
            "CodecBenchmark.encodeCreateText",
            "FoldBenchmark.absorbOne",
            "FoldBenchmark.buildEventOnly",
            "FoldBenchmark.fullFold",
            "GateBenchmark.executeToAwaiting",
            "GateBenchmark.perform",
            "GateBenchmark.resume",
            "PreStepBenchmark.appendThenStep",
            "PreStepBenchmark.firstStepAfterRestart",
            "PreStepBenchmark.step",
            "ScheduleBurstBenchmark.burst",
            "ScheduleBurstBenchmark.burst",
            "ScheduleScaleBenchmark.create",
            "ScheduleScaleBenchmark.createThenDelete",
            "ScheduleScaleBenchmark.list",
            "ScheduleScaleBenchmark.listBody",
            "ScheduleToolLatencyBenchmark.createThenDelete",
            "ScheduleToolLatencyBenchmark.list",
            "TimersBenchmark.systemTimeScheduleCancel",
            "TimersBenchmark.systemTimeScheduleFire",
            "TurnBenchmark.turn",
            "TurnBenchmark.turn");
    assertThat(results).allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
  }
}
