package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.fuzz.FuzzRun.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The harness's classification: only a value or the documented error is clean. */
class FuzzRunTest {

  private static final List<byte[]> CORPUS = FuzzRun.corpus(List.of("{\"a\":1}", "[1,2]", "\"x\""));

  @Test
  void valuesAndDocumentedErrorsAreCountedAndNothingElseIsClean() {
    FuzzRun.Report r = FuzzRun.run("classify", 1, 200, Duration.ofSeconds(30), CORPUS,
        in -> in.length % 2 == 0 ? Verdict.VALID : Verdict.DOMAIN_ERROR);
    assertThat(r.inputs()).isEqualTo(203);
    assertThat(r.valid() + r.domainErrors()).isEqualTo(203);
    assertThat(r.findings()).isEmpty();
  }

  @Test
  void anotherExceptionAStackOverflowAndAHangAreFindings() {
    CountDownLatch never = new CountDownLatch(1);
    try {
      FuzzRun.Report r = FuzzRun.run("broken", 2, 0, Duration.ofSeconds(30), Duration.ofMillis(200), CORPUS, in -> {
        if (in.length == 7) {
          throw new NullPointerException("leaked");
        }
        if (in[0] == '[') {
          return recurse(in.length);
        }
        if (in[0] == '"') {
          never.await();
        }
        return Verdict.VALID;
      });
      assertThat(r.findings()).extracting(FuzzRun.Finding::kind)
          .contains("java.lang.NullPointerException", "java.lang.StackOverflowError", "hang");
    } finally {
      never.countDown();
    }
  }

  private static Verdict recurse(int n) {
    return n == Integer.MIN_VALUE ? Verdict.VALID : recurse(n + 1);
  }
}
