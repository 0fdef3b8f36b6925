package dev.horae.schedule;

import java.util.Objects;

/**
 * One {@code schedule/change} payload of version 1 (spec §3.2): a create, a delete or a dispatch.
 * Immutable; encode with {@link ChangeCodec}.
 */
public sealed interface ScheduleChange
    permits ScheduleChange.Create, ScheduleChange.Delete, ScheduleChange.Dispatch {

  /**
   * The id the change concerns.
   *
   * @return the record id for a create, the target id otherwise
   */
  String id();

  /**
   * The wire name of the operation.
   *
   * @return {@code create}, {@code delete} or {@code dispatch}
   */
  String operation();

  /**
   * Creates a record.
   *
   * @param record the new record
   */
  record Create(ScheduleRecord record) implements ScheduleChange {
    /**
     * Checks the record is present.
     *
     * @param record as described on the record
     */
    public Create {
      Objects.requireNonNull(record, "record");
    }

    @Override
    public String id() {
      return record.id();
    }

    @Override
    public String operation() {
      return "create";
    }
  }

  /**
   * Ends an active record without delivering it.
   *
   * @param id the target id
   */
  record Delete(String id) implements ScheduleChange {
    /**
     * Checks the id rule.
     *
     * @param id as described on the record
     * @throws IllegalArgumentException when the id is empty or not trimmed
     */
    public Delete {
      checkId(id);
    }

    @Override
    public String operation() {
      return "delete";
    }
  }

  /**
   * Records that the record's followup was synchronously queued.
   *
   * @param id the target id
   */
  record Dispatch(String id) implements ScheduleChange {
    /**
     * Checks the id rule.
     *
     * @param id as described on the record
     * @throws IllegalArgumentException when the id is empty or not trimmed
     */
    public Dispatch {
      checkId(id);
    }

    @Override
    public String operation() {
      return "dispatch";
    }
  }

  private static void checkId(String id) {
    Objects.requireNonNull(id, "id");
    if (!EcmaText.isNonEmptyTrimmed(id)) {
      throw new IllegalArgumentException(
          "schedule id must be a non-empty string without surrounding whitespace");
    }
  }
}
