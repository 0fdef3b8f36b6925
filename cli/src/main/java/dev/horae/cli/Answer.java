package dev.horae.cli;

import dev.horae.console.Answered;
import dev.horae.console.ConsoleFailure;
import dev.horae.console.LogBackend;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.runtime.gate.AwaitingCall;
import dev.horae.spi.plugin.WarningSink;
import java.time.InstantSource;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The command line's answer to a parked call, shared by {@code horae approve}/{@code deny} and the
 * Approve/Deny buttons of {@code horae console}: find the call in the stored log, refuse without
 * an {@link OperatorSetup}, open a runtime over the store under its own exclusion, and answer in
 * it by the console module's one answer path ({@link Answered#give}: the gate's ticket rules
 * apply; docs/operations.md, "Answering a parked call").
 */
final class Answer {

  private Answer() {}

  /**
   * Answers the parked call of {@code runId}.
   *
   * @param setup the application's setup, loaded only once the call is known to be awaiting; null
   *     when none was given (refused {@link ExitCode#NEEDS_SETUP})
   * @throws CliException with the exit status of a refusal; nothing was written then
   */
  static Answered give(StoreAccess store, String runId, boolean approve, String reason,
      @Nullable Supplier<OperatorSetup> setup, long timeoutSeconds, InstantSource clock, WarningSink warnings) {
    AwaitingCall call = exiting(() -> LogBackend.find(store, runId));
    return give(store, call, approve, reason, setup, timeoutSeconds, clock, warnings);
  }

  /**
   * Answers {@code call}, found in {@code store}'s log.
   *
   * @throws CliException with the exit status of a refusal; nothing was written then
   */
  static Answered give(StoreAccess store, AwaitingCall call, boolean approve, String reason,
      @Nullable Supplier<OperatorSetup> setup, long timeoutSeconds, InstantSource clock, WarningSink warnings) {
    if (setup == null) {
      throw new CliException(ExitCode.NEEDS_SETUP, (approve ? "approve" : "deny") + " continues the turn of " + call.runId()
          + ": it runs " + (approve ? "the call " + call.toolId() + " and " : "") + "the model's next steps, so it needs the "
          + "application's tools and model; give --setup CLASS (an OperatorSetup on the class path), or answer from the "
          + "application with HoraeRuntime." + (approve ? "approve" : "deny") + ". Nothing was written");
    }
    try (HoraeRuntime runtime = store.writer(setup.get(), clock, warnings)) {
      return exiting(() -> Answered.give(runtime, call, approve, reason, timeoutSeconds));
    }
  }

  /** Runs {@code action}, turning the console module's failures into the command line's exit statuses. */
  private static <T> T exiting(Supplier<T> action) {
    try {
      return action.get();
    } catch (ConsoleFailure f) {
      throw new CliException(ExitCode.of(f.kind()), String.valueOf(f.getMessage()), f);
    }
  }

  /** Loads the setup class {@code name} names. */
  static OperatorSetup load(String name) {
    try {
      Class<?> type = Class.forName(name, true, Thread.currentThread().getContextClassLoader());
      if (!OperatorSetup.class.isAssignableFrom(type)) {
        throw new CliException(ExitCode.USAGE, name + " is not an " + OperatorSetup.class.getName());
      }
      return (OperatorSetup) type.getConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new CliException(ExitCode.USAGE, "cannot load the setup " + name + ": " + e, e);
    }
  }
}
