package dev.horae.spi.plugin;

import java.util.concurrent.CompletionStage;

/** An installed plugin. Disposal is idempotent: every call returns the same stage. */
@FunctionalInterface
public interface Installation {

  /**
   * Disposes the plugin: unregisters everything and awaits its disposal effects.
   *
   * @return a stage completing when disposal finished
   */
  CompletionStage<Void> close();
}
