package dev.horae.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.console.ConsoleBackend;
import dev.horae.console.ConsoleFailure;
import dev.horae.console.LogBackend;
import dev.horae.spi.plugin.WarningSink;
import java.time.InstantSource;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The data of {@code horae console}: the console module's views over the command line's store
 * ({@link LogBackend} over {@link StoreAccess}, which reads a file store with {@code
 * FileSessionStore.peek}), answering by the command line's own path ({@link Answer}), so a button
 * and {@code horae approve} are refused alike.
 */
final class StoreBackend implements ConsoleBackend {

  private final LogBackend logs;

  StoreBackend(StoreAccess store, InstantSource clock, @Nullable Supplier<OperatorSetup> setup, long timeoutSeconds,
      WarningSink warnings) {
    this.logs = new LogBackend(store, clock, setup != null, (call, approve, reason) -> {
      try {
        return Answer.give(store, call, approve, reason, setup, timeoutSeconds, clock, warnings);
      } catch (CliException e) {
        throw new ConsoleFailure(ExitCode.kind(e.exitCode()), String.valueOf(e.getMessage()), e);
      }
    });
  }

  @Override
  public JsonNode sessions() {
    return logs.sessions();
  }

  @Override
  public JsonNode timeline(String session) {
    return logs.timeline(session);
  }

  @Override
  public JsonNode reminders() {
    return logs.reminders();
  }

  @Override
  public JsonNode awaiting() {
    return logs.awaiting();
  }

  @Override
  public JsonNode answer(String runId, boolean approve, String reason) {
    return logs.answer(runId, approve, reason);
  }
}
