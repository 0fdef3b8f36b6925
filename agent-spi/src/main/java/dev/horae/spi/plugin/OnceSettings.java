package dev.horae.spi.plugin;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The settings a configuration builder was already given, so that a setting given twice is
 * refused instead of silently overwritten: two calls that disagree are a mistake in the caller's
 * code, and which one should win is not the builder's to guess.
 *
 * <p>Every plugin configuration builder uses one, so the refusal reads the same everywhere:
 * {@code IllegalStateException: <setting> was already set for this <what>}, for instance {@code
 * timeZone was already set for this time-context configuration}. Not thread-safe, as builders are
 * not.
 */
public final class OnceSettings {

  private final String what;
  private final Set<String> given = new HashSet<>();

  /**
   * Creates an empty record of given settings.
   *
   * @param what what the settings configure, as the refusal names it (e.g. {@code "time-context
   *     configuration"})
   */
  public OnceSettings(String what) {
    this.what = Objects.requireNonNull(what, "what");
  }

  /**
   * Records that a setting is being given.
   *
   * @param setting the setting's name, as its builder method and its JSON key spell it
   * @throws IllegalStateException when the setting was already given
   */
  public void mark(String setting) {
    if (!given.add(setting)) {
      throw new IllegalStateException(setting + " was already set for this " + what);
    }
  }
}
