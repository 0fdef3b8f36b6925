package dev.horae.invariant;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One violation a log companion found.
 *
 * @param owner the companion's owner name
 * @param seq the offending event's {@code seq}; empty when the log as a whole is wrong (a
 *     {@code seedLength} outside the log)
 * @param message the companion's message, without the {@code invariant violated by} prefix
 * @param prefixed whether the violation is reported with the standard prefix; false only for the
 *     failures a spec reports with their own text (a time-context client-zone derivation failure)
 */
public record LogFinding(String owner, OptionalLong seq, String message, boolean prefixed) {

  /** Checks presence. */
  public LogFinding {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(seq, "seq");
    Objects.requireNonNull(message, "message");
  }

  /**
   * A rule violation at one event.
   *
   * @param owner the owner name
   * @param seq the event's seq
   * @param message the rule's message
   * @return the finding
   */
  public static LogFinding at(String owner, long seq, String message) {
    return new LogFinding(owner, OptionalLong.of(seq), message, true);
  }

  /**
   * The text a host shows: {@code invariant violated by "<owner>": <message>}, or the bare message
   * when the spec reports it without the prefix.
   *
   * @return the violation text
   */
  public String text() {
    return prefixed ? "invariant violated by \"" + owner + "\": " + message : message;
  }

  /**
   * The line the offline check prints: {@code seq <n>: <text>}, or {@code log: <text>} without a
   * seq.
   *
   * @return the report line
   */
  public String reportLine() {
    return (seq.isPresent() ? "seq " + seq.getAsLong() : "log") + ": " + text();
  }
}
