package dev.horae.spi.plugin;

import java.util.concurrent.CompletionStage;

/** A scope plus the right to dispose it. */
public interface ScopeHandle {

  /**
   * The scope.
   *
   * @return the scope
   */
  Scope scope();

  /**
   * Disposes the scope: closes its registrations in reverse order and awaits its effects.
   * Idempotent.
   *
   * @return a stage completing when disposal finished
   */
  CompletionStage<Void> dispose();
}
