package dev.horae.schedule;

/** The management operation a {@code persistence_uncertain} value names (spec §4.2). */
public enum Operation {
  /** {@code schedule_create}. */
  CREATE("create"),
  /** {@code schedule_list}. */
  LIST("list"),
  /** {@code schedule_delete}. */
  DELETE("delete");

  private final String wire;

  Operation(String wire) {
    this.wire = wire;
  }

  /**
   * The operation as written in tool values.
   *
   * @return {@code create}, {@code list} or {@code delete}
   */
  public String wire() {
    return wire;
  }
}
