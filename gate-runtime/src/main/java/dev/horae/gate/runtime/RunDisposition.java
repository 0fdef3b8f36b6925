package dev.horae.gate.runtime;

import dev.horae.gate.EndCause;
import dev.horae.gate.ResumeTicket;
import dev.horae.gate.RunState;
import java.util.Objects;

/**
 * The run fact a commit records (gate specification §5.1). Only awaiting carries a ticket, and
 * it must.
 */
public sealed interface RunDisposition
    permits RunDisposition.Running, RunDisposition.Awaiting, RunDisposition.Ended {

  /**
   * The Run this fact is about.
   *
   * @return the run id
   */
  String runId();

  /**
   * The run state this fact establishes.
   *
   * @return the state
   */
  RunState state();

  /**
   * The Run is running.
   *
   * @param runId the Run
   */
  record Running(String runId) implements RunDisposition {
    /** Rejects a missing id. */
    public Running {
      Objects.requireNonNull(runId, "runId");
    }

    @Override
    public RunState state() {
      return RunState.running();
    }
  }

  /**
   * The Run awaits; the ticket becomes authoritative when this commits.
   *
   * @param ticket the ticket
   */
  record Awaiting(ResumeTicket ticket) implements RunDisposition {
    /** Rejects a missing ticket. */
    public Awaiting {
      Objects.requireNonNull(ticket, "ticket");
    }

    @Override
    public String runId() {
      return ticket.runId();
    }

    @Override
    public RunState state() {
      return RunState.awaiting();
    }
  }

  /**
   * The Run ended.
   *
   * @param runId the Run
   * @param cause why
   */
  record Ended(String runId, EndCause cause) implements RunDisposition {
    /** Rejects missing parts. */
    public Ended {
      Objects.requireNonNull(runId, "runId");
      Objects.requireNonNull(cause, "cause");
    }

    @Override
    public RunState state() {
      return RunState.ended(cause);
    }
  }
}
