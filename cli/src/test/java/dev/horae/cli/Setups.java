package dev.horae.cli;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.model.ModelPort;
import dev.horae.testkit.agent.ScriptedModel;

/** Operator setups the tests name with {@code --setup}. */
final class Setups {

  private Setups() {}

  /** The application's own wiring and a model that answers the continued turn. */
  public static final class Deploy implements OperatorSetup {
    /** Public for reflective construction. */
    public Deploy() {}

    @Override
    public ModelPort model() {
      return new ScriptedModel().thenText("deployed to prod").thenText("noted");
    }

    @Override
    public void install(HoraeRuntime runtime) {
      App.wire(runtime, true);
    }
  }

  /** A setup that lacks the {@code deploy} tool: the catalog differs from the one the call was gated under. */
  public static final class WithoutDeploy implements OperatorSetup {
    /** Public for reflective construction. */
    public WithoutDeploy() {}

    @Override
    public ModelPort model() {
      return new ScriptedModel().thenText("unused");
    }

    @Override
    public void install(HoraeRuntime runtime) {
      App.wire(runtime, false);
    }
  }
}
