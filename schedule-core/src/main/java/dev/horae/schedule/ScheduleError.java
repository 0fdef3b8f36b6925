package dev.horae.schedule;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Schedule domain error value (spec §4.2, §5): an ordinary successful tool result, never an
 * exception. The three shapes are closed; render with {@link #toJson()}.
 */
public sealed interface ScheduleError
    permits ScheduleError.Basic, ScheduleError.PersistenceUncertain, ScheduleError.ZoneConfirmation {

  /** {@code invalid_selector}. */
  String INVALID_SELECTOR_MESSAGE = "schedule_create accepts exactly one of after_seconds or at.";
  /** {@code invalid_prompt}. */
  String INVALID_PROMPT_MESSAGE = "prompt must be non-empty after trimming.";
  /** {@code invalid_rule} for {@code after_seconds}. */
  String AFTER_SECONDS_MESSAGE = "after_seconds must be a positive safe integer.";
  /** {@code invalid_rule} for a delete id. */
  String DELETE_ID_MESSAGE = "schedule_delete id must be non-empty without surrounding whitespace.";
  /** {@code invalid_rule}: string {@code at} grammar. */
  String AT_SHAPE_MESSAGE =
      "at must use YYYY-MM-DDTHH:mm:ss with optional 1-3 digit fractional seconds and an explicit"
          + " Z or numeric offset.";
  /** {@code invalid_rule}: impossible calendar date (string form, and local form dates). */
  String AT_REAL_DATE_MESSAGE = "The at value must be a real ISO calendar date and time.";
  /** {@code invalid_rule}: bad numeric offset. */
  String AT_OFFSET_MESSAGE = "The at numeric offset is invalid.";
  /** {@code invalid_rule}: {@code at} is neither a string nor an object. */
  String AT_TYPE_MESSAGE = "at must be an explicit-offset string or local calendar object.";
  /** {@code invalid_rule}: local member set. */
  String LOCAL_KEYS_MESSAGE = "Local at must contain exactly date, time, and optional time_zone.";
  /** {@code invalid_rule}: local field types. */
  String LOCAL_TYPES_MESSAGE = "Local at date and time must be strings.";
  /** {@code invalid_rule}: local field grammar. */
  String LOCAL_SHAPE_MESSAGE =
      "Local at requires date YYYY-MM-DD and time HH:mm:ss with optional one-to-three digit"
          + " milliseconds.";
  /** {@code invalid_rule}: local field ranges. */
  String LOCAL_REAL_MESSAGE = "The local at value must be a real ISO calendar date and time.";
  /** {@code invalid_rule}: local time in a gap. */
  String LOCAL_GAP_MESSAGE = "The local at time does not exist in the selected time zone.";
  /** {@code invalid_time_zone}: not a string. */
  String ZONE_TYPE_MESSAGE = "time_zone must be a string.";
  /** {@code invalid_time_zone}: shape or unknown. */
  String ZONE_NAME_MESSAGE = "time_zone must be UTC or a valid IANA Area/Location name.";
  /** {@code invalid_time_zone}: canonical name has a bad shape (defensive). */
  String ZONE_CANONICAL_MESSAGE = "time_zone must resolve to UTC or an IANA Area/Location name.";
  /** {@code invalid_time_zone}: rules unavailable (defensive). */
  String ZONE_RULES_MESSAGE = "time_zone did not expose a usable UTC offset.";
  /** {@code timezone_confirmation_required}. */
  String ZONE_CONFIRMATION_MESSAGE = "Local at requires an explicit time_zone for this request.";
  /** {@code not_future}. */
  String NOT_FUTURE_MESSAGE = "The scheduled time must be strictly in the future.";
  /** {@code time_out_of_range}. */
  String OUT_OF_RANGE_MESSAGE =
      "The scheduled time must be representable as a four-digit-year RFC 3339 UTC instant.";
  /** {@code corrupt_schedule_log}. */
  String CORRUPT_MESSAGE = "The session schedule log is corrupt.";
  /** {@code persistence_uncertain}. */
  String PERSISTENCE_MESSAGE =
      "Schedule persistence is uncertain; retry with schedule_list before relying on this result.";
  /** {@code internal_error}. */
  String INTERNAL_MESSAGE = "The schedule operation failed.";
  /** The session zone reported for a headerless session. */
  String UNAVAILABLE_ZONE = "unavailable";

  /**
   * The error code.
   *
   * @return the code
   */
  ErrorCode code();

  /**
   * The exact, stable message.
   *
   * @return the message
   */
  String message();

  /**
   * The canonical JSON text of the value (members in spec order, no whitespace).
   *
   * @return compact JSON text
   */
  default String toJson() {
    return ScheduleJson.error(this);
  }

  /**
   * The {@code corrupt_schedule_log} value shown to the model.
   *
   * @return the basic error
   */
  static ScheduleError corruptLog() {
    return new Basic(ErrorCode.CORRUPT_SCHEDULE_LOG, CORRUPT_MESSAGE);
  }

  /**
   * The {@code internal_error} value.
   *
   * @return the basic error
   */
  static ScheduleError internal() {
    return new Basic(ErrorCode.INTERNAL_ERROR, INTERNAL_MESSAGE);
  }

  /**
   * A {@code code}/{@code message} error.
   *
   * @param code any code except the two with their own shapes
   * @param message the exact message
   */
  record Basic(ErrorCode code, String message) implements ScheduleError {
    /**
     * Checks the code uses the basic shape.
     *
     * @param code as described on the record
     * @param message as described on the record
     * @throws IllegalArgumentException for {@code persistence_uncertain} or
     *     {@code timezone_confirmation_required}
     */
    public Basic {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
      if (code == ErrorCode.PERSISTENCE_UNCERTAIN
          || code == ErrorCode.TIMEZONE_CONFIRMATION_REQUIRED) {
        throw new IllegalArgumentException(code.wire() + " has its own value shape");
      }
    }
  }

  /**
   * {@code persistence_uncertain}, naming the operation and, once known, the id.
   *
   * @param operation the management operation
   * @param id the schedule id when one is known
   */
  record PersistenceUncertain(Operation operation, Optional<String> id) implements ScheduleError {
    /**
     * Checks presence.
     *
     * @param operation as described on the record
     * @param id as described on the record
     */
    public PersistenceUncertain {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(id, "id");
    }

    @Override
    public ErrorCode code() {
      return ErrorCode.PERSISTENCE_UNCERTAIN;
    }

    @Override
    public String message() {
      return PERSISTENCE_MESSAGE;
    }
  }

  /**
   * {@code timezone_confirmation_required} with the zones known to the step.
   *
   * @param sessionTimeZone the header zone as stored, or {@code unavailable}
   * @param clientTimeZones the client zones, de-duplicated and sorted by UTF-16 code unit
   */
  record ZoneConfirmation(String sessionTimeZone, List<String> clientTimeZones)
      implements ScheduleError {
    /**
     * Freezes the zone list.
     *
     * @param sessionTimeZone as described on the record
     * @param clientTimeZones as described on the record
     */
    public ZoneConfirmation {
      Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
      clientTimeZones = List.copyOf(clientTimeZones);
    }

    @Override
    public ErrorCode code() {
      return ErrorCode.TIMEZONE_CONFIRMATION_REQUIRED;
    }

    @Override
    public String message() {
      return ZONE_CONFIRMATION_MESSAGE;
    }
  }
}
