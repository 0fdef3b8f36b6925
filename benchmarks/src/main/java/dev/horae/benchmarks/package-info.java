/**
 * JMH benchmarks for Horae, run from the shaded {@code benchmarks/target/benchmarks.jar} (see
 * {@code docs/performance.md}).
 *
 * <p>Each class measures one seam through its module's public API only:
 *
 * <ul>
 *   <li>{@link dev.horae.benchmarks.FoldBenchmark}: the schedule fold, full and incremental;
 *   <li>{@link dev.horae.benchmarks.CodecBenchmark}: the {@code schedule/change} codec;
 *   <li>{@link dev.horae.benchmarks.ScheduleScaleBenchmark}: Schedule's tool costs at 1,000 to
 *       1,000,000 pending reminders, and {@link dev.horae.benchmarks.ScheduleToolLatencyBenchmark}
 *       on a long log;
 *   <li>{@link dev.horae.benchmarks.ScheduleBurstBenchmark}: delivery of a burst of due reminders
 *       on the system clock, in memory and on the file store ({@link
 *       dev.horae.benchmarks.ScheduleHeapFootprint} measures heap per pending reminder);
 *   <li>{@link dev.horae.benchmarks.TimersBenchmark}: scheduling and cancelling 100,000 timers on
 *       the production {@code SystemTime};
 *   <li>{@link dev.horae.benchmarks.PreStepBenchmark}: one time-context pre-step on long logs;
 *   <li>{@link dev.horae.benchmarks.GateBenchmark}: a gated Run's perform and resume on the
 *       production sessions service;
 *   <li>{@link dev.horae.benchmarks.ScheduleToolLatencyBenchmark}: Schedule tool calls through the
 *       production runtime's tool registry on a long log;
 *   <li>{@link dev.horae.benchmarks.DueWorkBenchmark}: due work drained from one embedded
 *       PostgreSQL, Horae's reminders and scheduled actions side by side with db-scheduler's
 *       one-time tasks (issue 15; db-scheduler is a dependency of this module only).
 * </ul>
 *
 * <p>Every benchmark runs on production types only (the runtime, the sessions service, the
 * stores); the testkit is test infrastructure and is not on this module's classpath.
 *
 * <p>The support types ({@link dev.horae.benchmarks.ScheduleLogs}, {@link
 * dev.horae.benchmarks.ScheduleHosts}, {@link dev.horae.benchmarks.ArraySession}, {@link
 * dev.horae.benchmarks.ListenerCapture}, {@link dev.horae.benchmarks.BenchPostgres}) build the inputs;
 * they are not measured.
 */
@NullMarked
package dev.horae.benchmarks;

import org.jspecify.annotations.NullMarked;
