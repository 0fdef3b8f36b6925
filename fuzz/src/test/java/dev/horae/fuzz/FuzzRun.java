package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one decoder over its seeds and then over mutated inputs, and classifies every input: a
 * valid value, the decoder's documented error, or a finding — any other exception or error
 * (including {@link StackOverflowError} and {@link OutOfMemoryError}), or an input that did not
 * finish within the per-input limit (a hang).
 *
 * <p>Each input runs on one worker thread with the JVM's default stack size, the same as any
 * caller's thread, so a recursion that overflows there overflows here. The counts are printed to
 * stdout; every finding's full input is written to {@code target/fuzz-findings/} for replay.
 */
final class FuzzRun {

  /** How an input ended. */
  enum Verdict {
    /** The decoder returned a value (and the target's own checks of it held). */
    VALID,
    /** The decoder failed with its documented error. */
    DOMAIN_ERROR,
    /** The JSON parser in front of the decoder refused the text (with the decoder's error). */
    UNPARSABLE
  }

  /** One decoder under test. */
  @FunctionalInterface
  interface Target {
    /**
     * Decodes one input.
     *
     * @param input the bytes
     * @return how it ended, when it ended in a value or the documented error
     * @throws Exception anything else: a finding
     */
    Verdict decode(byte[] input) throws Exception;
  }

  /**
   * One distinct failure: the first input that produced it and how often it occurred.
   *
   * @param kind the exception class, or {@code hang}
   * @param where the first {@code dev.horae} frame of the stack trace
   * @param message the exception's message (shortened)
   * @param input a printable excerpt of the first input
   * @param count how many inputs produced it
   */
  record Finding(String kind, String where, String message, String input, int count) {}

  /**
   * The outcome of a run.
   *
   * @param name the decoder's name
   * @param seed the random seed
   * @param inputs inputs run (seeds included)
   * @param valid valid values
   * @param domainErrors documented errors, parser refusals included
   * @param unparsable of those, refusals by the JSON parser
   * @param findings every distinct finding
   * @param cutShort whether the time budget stopped the run before its iterations
   * @param slowestMillis how long the slowest input took, for diagnosis (never asserted)
   * @param slowestBytes the slowest input's length
   */
  record Report(
      String name, long seed, int inputs, int valid, int domainErrors, int unparsable, List<Finding> findings,
      boolean cutShort, long slowestMillis, int slowestBytes) {

    /** The one line every run prints. */
    String line() {
      return String.format(Locale.ROOT,
          "fuzz %-28s seed=%d inputs=%d valid=%d domainErrors=%d (unparsable %d) findings=%d slowest=%d ms (%d bytes)%s",
          name, seed, inputs, valid, domainErrors, unparsable, findings.size(), slowestMillis, slowestBytes,
          cutShort ? " (stopped by the time budget)" : "");
    }
  }

  /** Mutated inputs per decoder in the default build: the fixed-seed corpus run. */
  static final int CORPUS = 3_000;

  /** A safety stop for a corpus run; on the two-core CI machine one takes a few seconds. */
  static final Duration CORPUS_BUDGET = Duration.ofSeconds(40);

  /** Mutated inputs per decoder in profile {@code slow}. */
  static final int LONG = 60_000;

  /**
   * The time budget of one long run: the long runs together stay near two minutes, and a run
   * that reaches its budget first stops early and says so.
   */
  static final Duration LONG_BUDGET = Duration.ofSeconds(7);

  /** A run whose input takes longer than this hangs; no valid input of the corpus comes near it. */
  private static final Duration PER_INPUT = Duration.ofSeconds(10);

  private FuzzRun() {}

  /**
   * Runs a decoder: every seed once, then {@code iterations} mutated inputs.
   *
   * @param name the decoder's name, for the printed line and the finding files
   * @param seed the random seed
   * @param iterations the number of mutated inputs
   * @param budget stops the run early (and says so) once this much time has passed
   * @param corpus the seeds
   * @param target the decoder
   * @return the report, already printed
   */
  static Report run(String name, long seed, int iterations, Duration budget, List<byte[]> corpus, Target target) {
    return run(name, seed, iterations, budget, PER_INPUT, corpus, target);
  }

  /**
   * Runs a decoder with another per-input limit (the harness's own tests use a short one).
   *
   * @param name the decoder's name
   * @param seed the random seed
   * @param iterations the number of mutated inputs
   * @param budget stops the run early once this much time has passed
   * @param perInput an input that takes longer is a hang
   * @param corpus the seeds
   * @param target the decoder
   * @return the report, already printed
   */
  static Report run(String name, long seed, int iterations, Duration budget, Duration perInput, List<byte[]> corpus,
      Target target) {
    Mutator mutator = new Mutator(seed, corpus);
    Map<String, Finding> findings = new LinkedHashMap<>();
    Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
    for (Verdict v : Verdict.values()) {
      counts.put(v, 0);
    }
    int inputs = 0;
    boolean cutShort = false;
    long slowestMillis = 0;
    int slowestBytes = 0;
    long deadline = System.nanoTime() + budget.toNanos();
    Thread[] current = new Thread[1];
    ExecutorService worker = newWorker(name, current);
    try {
      int total = corpus.size() + iterations;
      for (int i = 0; i < total; i++) {
        if (System.nanoTime() > deadline) {
          cutShort = true;
          break;
        }
        byte[] input = i < corpus.size() ? corpus.get(i) : mutator.next();
        inputs++;
        long started = System.nanoTime();
        Future<Verdict> result = worker.submit(() -> target.decode(input));
        try {
          counts.merge(result.get(perInput.toMillis(), TimeUnit.MILLISECONDS), 1, Integer::sum);
          long took = (System.nanoTime() - started) / 1_000_000;
          if (took > slowestMillis) {
            slowestMillis = took;
            slowestBytes = input.length;
          }
        } catch (ExecutionException e) {
          record(findings, name, e.getCause() == null ? e : e.getCause(), input);
        } catch (TimeoutException e) {
          record(findings, name, new Hang(perInput, current[0].getStackTrace()), input);
          // the hung thread cannot be stopped; it is a daemon and the run goes on with a new one
          result.cancel(true);
          worker.shutdownNow();
          worker = newWorker(name, current);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("fuzz run " + name + " interrupted", e);
        }
      }
    } finally {
      worker.shutdownNow();
    }
    int valid = counts.getOrDefault(Verdict.VALID, 0);
    int unparsable = counts.getOrDefault(Verdict.UNPARSABLE, 0);
    Report report = new Report(name, seed, inputs, valid, counts.getOrDefault(Verdict.DOMAIN_ERROR, 0) + unparsable,
        unparsable, List.copyOf(findings.values()), cutShort, slowestMillis, slowestBytes);
    System.out.println(report.line());
    for (Finding f : report.findings()) {
      System.out.println("  finding x" + f.count() + ": " + f.kind() + " at " + f.where() + ": " + f.message()
          + "\n    input: " + f.input());
    }
    return report;
  }

  /**
   * The assertions every fuzz test makes: no finding, and the corpus reached both valid values
   * and documented errors (a fuzzer whose inputs all fail in the parser tests nothing).
   *
   * @param report a run's report
   */
  static void assertClean(Report report) {
    assertThat(report.findings())
        .as("%s: inputs that ended in neither a value nor the documented error (seed %d)", report.name(),
            report.seed())
        .isEmpty();
    assertThat(report.valid()).as("%s: valid values", report.name()).isPositive();
    assertThat(report.domainErrors() - report.unparsable())
        .as("%s: documented errors of the decoder itself", report.name()).isPositive();
  }

  /** A thread of this JVM's default stack size, like any caller's. */
  private static ExecutorService newWorker(String name, Thread[] current) {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fuzz-" + name);
      t.setDaemon(true);
      current[0] = t;
      return t;
    });
  }

  /** An input that did not finish in time. */
  private static final class Hang extends Exception {
    private static final long serialVersionUID = 1L;

    /** The hang, with the stack of the thread that was stuck when the limit passed. */
    Hang(Duration limit, StackTraceElement[] stuckAt) {
      super("no result within " + limit.toMillis() + " ms");
      setStackTrace(stuckAt);
    }
  }

  private static void record(Map<String, Finding> findings, String name, Throwable t, byte[] input) {
    String where = "";
    for (StackTraceElement e : t.getStackTrace()) {
      if (e.getClassName().startsWith("dev.horae.") && !e.getClassName().startsWith("dev.horae.fuzz.")) {
        where = e.getClassName() + "." + e.getMethodName() + ":" + e.getLineNumber();
        break;
      }
    }
    String kind = t instanceof Hang ? "hang" : t.getClass().getName();
    String key = kind + " " + where;
    Finding seen = findings.get(key);
    if (seen != null) {
      findings.put(key, new Finding(seen.kind(), seen.where(), seen.message(), seen.input(), seen.count() + 1));
      return;
    }
    String message = excerpt(String.valueOf(t.getMessage()).getBytes(StandardCharsets.UTF_8));
    findings.put(key, new Finding(kind, where, message,
        excerpt(input) + " (" + input.length + " bytes, " + save(name, findings.size(), input) + ")", 1));
  }

  private static String save(String name, int n, byte[] input) {
    Path dir = Path.of("target", "fuzz-findings");
    Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9.-]", "_") + "-" + n + ".bin");
    try {
      Files.createDirectories(dir);
      Files.write(file, input);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file.toString();
  }

  /**
   * A printable excerpt: the first 300 bytes, as Java escapes where not printable ASCII.
   *
   * @param input the bytes
   * @return the excerpt
   */
  static String excerpt(byte[] input) {
    StringBuilder out = new StringBuilder("\"");
    int n = Math.min(input.length, 300);
    for (int i = 0; i < n; i++) {
      int b = input[i] & 0xff;
      if (b == '"' || b == '\\') {
        out.append('\\').append((char) b);
      } else if (b >= 0x20 && b < 0x7f) {
        out.append((char) b);
      } else {
        out.append(String.format(Locale.ROOT, "\\x%02x", b));
      }
    }
    return out.append(input.length > n ? "\"…" : "\"").toString();
  }

  /**
   * The input as text, the way the stores and readers decode bytes (malformed UTF-8 becomes
   * U+FFFD).
   *
   * @param input the bytes
   * @return the text
   */
  static String text(byte[] input) {
    return new String(input, StandardCharsets.UTF_8);
  }

  /**
   * The corpus as bytes.
   *
   * @param texts seed texts
   * @return their UTF-8 bytes
   */
  static List<byte[]> corpus(List<String> texts) {
    List<byte[]> out = new ArrayList<>(texts.size());
    texts.forEach(t -> out.add(t.getBytes(StandardCharsets.UTF_8)));
    return out;
  }
}
