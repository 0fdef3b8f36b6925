package dev.horae.spi.gate;

import java.util.Objects;
import java.util.Optional;

/**
 * What a tool gate decided for one complete call (gate specification §1.1). Exactly five outcomes
 * exist; only {@link Allow} lets the runtime enter the tool executor.
 *
 * <table>
 *   <caption>Outcomes</caption>
 *   <tr><th>outcome</th><th>what happens next</th><th>audit label</th></tr>
 *   <tr><td>Allow</td><td>the runtime enters the tool executor</td><td>{@code allow}</td></tr>
 *   <tr><td>Block</td><td>the model receives the error result {@code blocked: <reason>}</td>
 *       <td>{@code deny}</td></tr>
 *   <tr><td>SetResult</td><td>the runtime commits the gate's result; the tool is skipped</td>
 *       <td>{@code set_result}</td></tr>
 *   <tr><td>RequireConfirmation</td><td>a permission ticket is committed</td>
 *       <td>{@code ask}</td></tr>
 *   <tr><td>Schedule</td><td>a scheduled-action ticket is committed; the system performs the
 *       same call later in the same Run</td><td>{@code schedule}</td></tr>
 * </table>
 */
public sealed interface GateOutcome
    permits GateOutcome.Allow,
        GateOutcome.Block,
        GateOutcome.SetResult,
        GateOutcome.RequireConfirmation,
        GateOutcome.Schedule {

  /**
   * The stable audit vocabulary of this outcome: {@code allow}, {@code deny}, {@code set_result},
   * {@code ask} or {@code schedule}.
   *
   * @return the audit label
   */
  String auditLabel();

  /**
   * Whether this outcome lets the call proceed to the next gate or the executor.
   *
   * @return true only for {@link Allow}
   */
  default boolean isAllow() {
    return this instanceof Allow;
  }

  /**
   * The outcome that lets the call run.
   *
   * @return the shared Allow value
   */
  static GateOutcome allow() {
    return Allow.INSTANCE;
  }

  /**
   * Skips the call; the model receives {@code blocked: <reason>}.
   *
   * @param reason the reason shown to the model
   * @return the outcome
   */
  static GateOutcome block(String reason) {
    return new Block(reason);
  }

  /**
   * Skips the call and commits the given result instead. The output must carry the call's own
   * id; the runtime rejects one that does not.
   *
   * @param output the result for the call
   * @return the outcome
   */
  static GateOutcome setResult(ToolOutput output) {
    return new SetResult(output);
  }

  /**
   * Parks the Run until a person confirms or denies the call.
   *
   * @param correlationId the id the answer must carry; non-empty
   * @return the outcome
   * @throws IllegalArgumentException when the correlation id is empty
   */
  static GateOutcome requireConfirmation(String correlationId) {
    return new RequireConfirmation(correlationId);
  }

  /**
   * Commits the exact call so that the system performs it later in the same Run, as the ordinary
   * resolved tool call (no action kind).
   *
   * @param correlationId the ticket's correlation id; non-empty
   * @return the outcome
   * @throws IllegalArgumentException when the correlation id is empty
   */
  static GateOutcome schedule(String correlationId) {
    return new Schedule(correlationId, Optional.empty());
  }

  /**
   * Commits the exact call for later performance under an action kind, which must be permitted
   * by the Run's resolved environment; an unpermitted kind ends the Run.
   *
   * @param correlationId the ticket's correlation id; non-empty
   * @param actionKind the action kind id; non-empty
   * @return the outcome
   * @throws IllegalArgumentException when the correlation id or the action kind is empty
   */
  static GateOutcome schedule(String correlationId, String actionKind) {
    return new Schedule(correlationId, Optional.of(actionKind));
  }

  /** Lets the call run. Use {@link GateOutcome#allow()}. */
  record Allow() implements GateOutcome {
    static final Allow INSTANCE = new Allow();

    /**
     * Returns {@code allow}.
     *
     * @return the audit label
     */
    @Override
    public String auditLabel() {
      return "allow";
    }
  }

  /**
   * Skips the call with an error result {@code blocked: <reason>}.
   *
   * @param reason the reason shown to the model
   */
  record Block(String reason) implements GateOutcome {
    /** Rejects a missing reason. */
    public Block {
      Objects.requireNonNull(reason, "reason");
    }

    /**
     * Returns {@code deny}.
     *
     * @return the audit label
     */
    @Override
    public String auditLabel() {
      return "deny";
    }
  }

  /**
   * Skips the call and commits the gate's result.
   *
   * @param output the result; carries the call's own id
   */
  record SetResult(ToolOutput output) implements GateOutcome {
    /** Rejects a missing output. */
    public SetResult {
      Objects.requireNonNull(output, "output");
    }

    /**
     * Returns {@code set_result}.
     *
     * @return the audit label
     */
    @Override
    public String auditLabel() {
      return "set_result";
    }
  }

  /**
   * Parks the Run on a permission ticket until a person answers.
   *
   * @param correlationId the ticket's correlation id; non-empty
   */
  record RequireConfirmation(String correlationId) implements GateOutcome {
    /**
     * Rejects an empty correlation id.
     *
     * @throws IllegalArgumentException when the correlation id is empty
     */
    public RequireConfirmation {
      requireCorrelation(correlationId);
    }

    /**
     * Returns {@code ask}.
     *
     * @return the audit label
     */
    @Override
    public String auditLabel() {
      return "ask";
    }
  }

  /**
   * Parks the Run on a scheduled-action ticket; the system performs the same call later.
   *
   * @param correlationId the ticket's correlation id; non-empty
   * @param actionKind empty for the ordinary resolved tool call, or a kind id that the Run's
   *     resolved environment must permit
   */
  record Schedule(String correlationId, Optional<String> actionKind) implements GateOutcome {
    /**
     * Rejects an empty correlation id or an empty action kind.
     *
     * @throws IllegalArgumentException when either is empty
     */
    public Schedule {
      requireCorrelation(correlationId);
      Objects.requireNonNull(actionKind, "actionKind");
      if (actionKind.isPresent() && actionKind.get().isEmpty()) {
        throw new IllegalArgumentException("action kind must be non-empty when present");
      }
    }

    /**
     * Returns {@code schedule}.
     *
     * @return the audit label
     */
    @Override
    public String auditLabel() {
      return "schedule";
    }
  }

  private static void requireCorrelation(String correlationId) {
    Objects.requireNonNull(correlationId, "correlationId");
    if (correlationId.isEmpty()) {
      throw new IllegalArgumentException("correlation id must be non-empty");
    }
  }
}
