package dev.horae.cli;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.model.ModelPort;

/**
 * What {@code horae approve} and {@code horae deny} need from the application: answering a parked
 * call continues its turn (runtime docs, "Durable gates"), so the approved tool runs in the CLI's
 * process and the model is asked for the next step. The CLI has neither the application's tools
 * nor its model; an implementation on the class path supplies both, exactly as the application
 * wires them: the same plugins, tools and gates, so the agent sees the tool catalog the call was
 * gated under (a different catalog is refused {@code fingerprintMismatch} and nothing runs).
 *
 * <p>Named with {@code --setup CLASS}; it needs a public no-argument constructor. Run the jar with
 * the application's classes beside it: {@code java -cp horae.jar:app.jar dev.horae.cli.Horae …}.
 */
public interface OperatorSetup {

  /**
   * The model the continued turn asks for its next steps.
   *
   * @return the application's model
   */
  ModelPort model();

  /**
   * Installs the application's plugins, tools and gates on the runtime the CLI opened over the
   * store, before any agent is opened.
   *
   * @param runtime the runtime
   */
  void install(HoraeRuntime runtime);
}
