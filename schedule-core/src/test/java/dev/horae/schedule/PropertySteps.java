package dev.horae.schedule;

/**
 * How many steps a seeded property loop of this module's tests takes. A normal run takes every
 * step; the mutation profile takes a share of them (system property {@value #SHARE_PROPERTY}, set
 * from {@code mutation.propertyShare} in the pom): under PIT every surviving or timed-out mutant
 * reruns every test that covers it, and these loops, quadratic because each step compares with a
 * naive definition, were most of the module's test time (docs/testing.md, "Where the time goes").
 * The loops keep their seeds and their shape, so a shorter run still reaches every case a full one
 * reaches early; the full runs stay in every default build.
 */
final class PropertySteps {

  /** The system property with the share of steps to take, a number in (0, 1]. */
  static final String SHARE_PROPERTY = "horae.test.propertyShare";

  private PropertySteps() {}

  /**
   * The steps to take of a loop whose full length is {@code full}: at least one.
   *
   * @param full the full number of steps
   * @return {@code full} in a normal run, the configured share of it (rounded up) otherwise
   * @throws IllegalArgumentException when the property is set to something other than a number in
   *     (0, 1]
   */
  static int of(int full) {
    String text = System.getProperty(SHARE_PROPERTY);
    if (text == null || text.isBlank()) {
      return full;
    }
    double share;
    try {
      share = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(SHARE_PROPERTY + " must be a number in (0, 1], not \"" + text + "\"", e);
    }
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException(SHARE_PROPERTY + " must be a number in (0, 1], not \"" + text + "\"");
    }
    return Math.max(1, (int) Math.ceil(full * share));
  }
}
