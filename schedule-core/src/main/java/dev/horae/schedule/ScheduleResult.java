package dev.horae.schedule;

import java.util.Objects;
import java.util.function.Function;

/**
 * A value or a domain error (spec §16.10: domain errors are data, not exceptions).
 *
 * @param <T> the success type
 */
public sealed interface ScheduleResult<T> permits ScheduleResult.Ok, ScheduleResult.Err {

  /**
   * A success.
   *
   * @param <T> the success type
   * @param value the value
   * @return the result
   */
  static <T> ScheduleResult<T> ok(T value) {
    return new Ok<>(value);
  }

  /**
   * A domain error.
   *
   * @param <T> the success type
   * @param error the error value
   * @return the result
   */
  static <T> ScheduleResult<T> err(ScheduleError error) {
    return new Err<>(error);
  }

  /**
   * Maps the success value, passing errors through.
   *
   * @param <U> the new success type
   * @param f the mapping
   * @return the mapped result
   */
  default <U> ScheduleResult<U> map(Function<? super T, ? extends U> f) {
    if (this instanceof Ok<T> ok) {
      return new Ok<>(f.apply(ok.value()));
    }
    return new Err<>(((Err<T>) this).error());
  }

  /**
   * A success.
   *
   * @param <T> the success type
   * @param value the value
   */
  record Ok<T>(T value) implements ScheduleResult<T> {
    /**
     * Checks presence.
     *
     * @param value as described on the record
     */
    public Ok {
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * A domain error.
   *
   * @param <T> the success type
   * @param error the error value
   */
  record Err<T>(ScheduleError error) implements ScheduleResult<T> {
    /**
     * Checks presence.
     *
     * @param error as described on the record
     */
    public Err {
      Objects.requireNonNull(error, "error");
    }
  }
}
