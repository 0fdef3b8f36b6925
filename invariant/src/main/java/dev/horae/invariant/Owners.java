package dev.horae.invariant;

/**
 * The fixed owner names companions register under. They appear in every violation message
 * ({@code invariant violated by "<owner>": <message>}) and in conformance vectors.
 */
public final class Owners {

  /** Schedule's companion (schedule spec §13). */
  public static final String SCHEDULE = "@deepseek-ai/dsh-tool-schedule";

  /** Time-context's companion (time-context spec §11). */
  public static final String TIME_CONTEXT = "@deepseek-ai/dsh-time-context";

  /** The jobs companion (jobs spec §2.15). */
  public static final String JOBS = "@deepseek-ai/dsh-jobs";

  /**
   * The gate runtime's companion. The gate specification names no owner; this follows the
   * package naming of the other three.
   */
  public static final String GATE = "@deepseek-ai/dsh-gate";

  private Owners() {}

  /** The turn-structure companion (host contract §6.1: turn and step markers); the name is ours. */
  public static final String TURNS = "@horae/turn-structure";
}
