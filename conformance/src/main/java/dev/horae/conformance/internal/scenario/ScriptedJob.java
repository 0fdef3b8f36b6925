package dev.horae.conformance.internal.scenario;

import dev.horae.spi.jobs.JobHooks;
import dev.horae.spi.jobs.JobOutcome;
import dev.horae.spi.jobs.JobProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A job producer the scenario steps drive: {@code job.emit} appends stream output, {@code
 * job.settle} completes it; cancellation requests are recorded, never acted on, so a scenario
 * decides when a cancelled job actually stops.
 */
final class ScriptedJob implements JobProducer {

  private final boolean stream;
  private final boolean cancelThrows;
  private final StringBuilder unread = new StringBuilder();
  private final List<String> cancels = new ArrayList<>();
  private final CompletableFuture<JobOutcome> done = new CompletableFuture<>();

  ScriptedJob(boolean stream, boolean cancelThrows) {
    this.stream = stream;
    this.cancelThrows = cancelThrows;
  }

  @Override
  public JobHooks run() {
    JobHooks.Canceller canceller = reason -> {
      synchronized (this) {
        cancels.add(reason.orElse(""));
      }
      if (cancelThrows) {
        throw new IllegalStateException("scripted cancel failure");
      }
    };
    return stream ? JobHooks.stream(canceller, done, this::read) : JobHooks.finalOutput(canceller, done);
  }

  private synchronized String read() {
    String out = unread.toString();
    unread.setLength(0);
    return out;
  }

  synchronized void emit(String text) {
    unread.append(text);
  }

  void settle(JobOutcome outcome) {
    done.complete(outcome);
  }

  void fail(String message) {
    done.completeExceptionally(new IllegalStateException(message));
  }

  synchronized List<String> cancels() {
    return List.copyOf(cancels);
  }

}
