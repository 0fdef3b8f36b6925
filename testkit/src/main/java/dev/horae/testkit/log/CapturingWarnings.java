package dev.horae.testkit.log;

import dev.horae.spi.plugin.WarningSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A warning sink that captures every warning in order. Thread-safe: warnings may arrive from any
 * thread; readers get snapshots.
 */
public final class CapturingWarnings implements WarningSink {

  /**
   * One captured warning.
   *
   * @param message what happened
   * @param cause the reported failure, if any
   */
  public record Warning(String message, Optional<Throwable> cause) {}

  private final List<Warning> captured = new ArrayList<>();

  /** Creates an empty sink. */
  public CapturingWarnings() {}

  @Override
  public void warn(String message, Optional<Throwable> cause) {
    synchronized (captured) {
      captured.add(new Warning(message, cause));
    }
  }

  /**
   * The captured warnings, oldest first.
   *
   * @return an immutable snapshot
   */
  public List<Warning> warnings() {
    synchronized (captured) {
      return List.copyOf(captured);
    }
  }

  /**
   * The captured messages, oldest first.
   *
   * @return an immutable snapshot
   */
  public List<String> messages() {
    return warnings().stream().map(Warning::message).toList();
  }

  /**
   * The captured causes that were present, oldest first.
   *
   * @return an immutable snapshot
   */
  public List<Throwable> causes() {
    return warnings().stream().flatMap(w -> w.cause().stream()).toList();
  }

  /**
   * The number of captured warnings.
   *
   * @return the count
   */
  public int size() {
    synchronized (captured) {
      return captured.size();
    }
  }

  /** Forgets every captured warning. */
  public void clear() {
    synchronized (captured) {
      captured.clear();
    }
  }
}
