package dev.horae.spi.plugin;

import dev.horae.spi.Registration;
import dev.horae.spi.tool.ToolDefinition;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A registration context (host contract §1 "Scopes"): a plugin scope or an agent scope.
 * Everything registered through it is closed, and disposal effects awaited, when the scope is
 * disposed.
 */
public interface Scope {

  /**
   * Registers a tool visible within this scope (for an agent scope: only to that agent).
   *
   * @param tool the definition
   * @return a handle that removes it
   * @throws IllegalArgumentException when the name is already registered in this scope
   */
  Registration registerTool(ToolDefinition tool);

  /**
   * Closes {@code registration} when the scope is disposed.
   *
   * @param registration a handle
   * @return a handle that closes it now and forgets it
   */
  Registration own(Registration registration);

  /**
   * Runs {@code effect} at disposal and awaits its stage.
   *
   * @param effect a disposal effect
   * @return a handle that cancels the effect
   */
  Registration onDispose(Supplier<CompletionStage<Void>> effect);

  /**
   * Whether the scope has been disposed.
   *
   * @return true after disposal started
   */
  boolean disposed();
}
