package dev.horae.jobs.fakes;

import dev.horae.spi.Registration;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** A minimal scope for registry unit tests: records disposal effects and runs them on dispose. */
public final class FakeScope implements Scope {

  private final List<Supplier<CompletionStage<Void>>> effects = new ArrayList<>();
  private boolean disposed;

  @Override
  public Registration registerTool(ToolDefinition tool) {
    throw new UnsupportedOperationException("registry tests register no tools");
  }

  @Override
  public Registration own(Registration registration) {
    return registration;
  }

  @Override
  public synchronized Registration onDispose(Supplier<CompletionStage<Void>> effect) {
    effects.add(effect);
    return () -> {
      synchronized (this) {
        effects.remove(effect);
      }
    };
  }

  @Override
  public synchronized boolean disposed() {
    return disposed;
  }

  /**
   * Number of pending disposal effects.
   *
   * @return the count
   */
  public synchronized int effectCount() {
    return effects.size();
  }

  /**
   * Runs every effect and combines their stages.
   *
   * @return completes when every effect's stage completed
   */
  public CompletableFuture<Void> dispose() {
    List<Supplier<CompletionStage<Void>>> run;
    synchronized (this) {
      disposed = true;
      run = List.copyOf(effects);
      effects.clear();
    }
    return CompletableFuture.allOf(
        run.stream().map(e -> e.get().toCompletableFuture()).toArray(CompletableFuture<?>[]::new));
  }
}
