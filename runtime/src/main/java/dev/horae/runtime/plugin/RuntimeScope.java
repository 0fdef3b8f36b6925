package dev.horae.runtime.plugin;

import dev.horae.spi.Registration;
import dev.horae.spi.plugin.Scope;
import dev.horae.spi.plugin.ScopeHandle;
import dev.horae.spi.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A plugin or agent scope. Thread-safe; disposal is idempotent. */
public final class RuntimeScope implements Scope, ScopeHandle {

  private final Function<ToolDefinition, Registration> toolRegistrar;
  private final List<Registration> owned = new ArrayList<>();
  private final List<Supplier<CompletionStage<Void>>> effects = new ArrayList<>();
  private @Nullable CompletableFuture<Void> disposal;

  /**
   * Creates a scope.
   *
   * @param toolRegistrar registers a tool in the registry with this scope's visibility
   */
  public RuntimeScope(Function<ToolDefinition, Registration> toolRegistrar) {
    this.toolRegistrar = toolRegistrar;
  }

  @Override
  public Scope scope() {
    return this;
  }

  @Override
  public Registration registerTool(ToolDefinition tool) {
    return own(toolRegistrar.apply(tool));
  }

  @Override
  public synchronized Registration own(Registration registration) {
    if (disposal != null) {
      registration.close();
      return Registration.noop();
    }
    owned.add(registration);
    return () -> {
      synchronized (this) {
        owned.remove(registration);
      }
      registration.close();
    };
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
    return disposal != null;
  }

  @Override
  public CompletionStage<Void> dispose() {
    List<Registration> toClose;
    List<Supplier<CompletionStage<Void>>> toRun;
    CompletableFuture<Void> done;
    synchronized (this) {
      if (disposal != null) {
        return disposal;
      }
      disposal = done = new CompletableFuture<>();
      toClose = new ArrayList<>(owned);
      toRun = new ArrayList<>(effects);
      owned.clear();
      effects.clear();
    }
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
    List<CompletableFuture<Void>> awaited = new ArrayList<>();
    for (Supplier<CompletionStage<Void>> effect : toRun) {
      try {
        awaited.add(effect.get().toCompletableFuture());
      } catch (RuntimeException e) {
        awaited.add(CompletableFuture.failedFuture(e));
      }
    }
    var unused = CompletableFuture.allOf(awaited.toArray(CompletableFuture[]::new))
        .whenComplete((v, e) -> done.complete(null));
    return done;
  }
}
