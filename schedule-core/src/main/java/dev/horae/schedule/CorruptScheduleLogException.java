package dev.horae.schedule;

import dev.horae.spi.HoraeException;

/**
 * A {@code schedule/change} payload or sequence that version 1 cannot accept (spec §3.4, §3.5,
 * §10, §16.10). The message is one of the spec's exact internal texts; it appears in invariant
 * violations and owner warnings and is never shown to the model, which sees
 * {@code corrupt_schedule_log} instead.
 */
public final class CorruptScheduleLogException extends HoraeException {

  /** Serialization version. */
  private static final long serialVersionUID = 1L;

  /** The exact spec text, kept non-null for callers. */
  private final String reason;

  /**
   * Creates the failure.
   *
   * @param message the exact spec text
   */
  public CorruptScheduleLogException(String message) {
    // no stack trace: this is an expected data outcome on hot fold paths, not a bug report
    super(message, null, false, false);
    this.reason = message;
  }

  /**
   * The exact spec text (the same as {@link #getMessage()}, never null).
   *
   * @return the decoder, fold or presentation message
   */
  public String reason() {
    return reason;
  }

  /**
   * The error code every corrupt-log failure maps to.
   *
   * @return {@link ErrorCode#CORRUPT_SCHEDULE_LOG}
   */
  public ErrorCode code() {
    return ErrorCode.CORRUPT_SCHEDULE_LOG;
  }
}
