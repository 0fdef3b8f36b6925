package dev.horae.schedule;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** Id allocation (spec §3.7): never reuses an id seen in the owned suffix. */
public final class ScheduleIds {

  /** The prefix of allocated ids. */
  public static final String PREFIX = "schedule-";

  private ScheduleIds() {}

  /**
   * {@code allocateId(seenIds)}: start at {@code |seen| + 1} and step up past taken candidates.
   * Gaps below the start are never back-filled.
   *
   * @param seenIds every id created in the owned suffix (duplicates count once)
   * @return the first free {@code schedule-N}
   */
  public static String allocate(Collection<String> seenIds) {
    Set<String> seen = seenIds instanceof Set<String> s ? s : new HashSet<>(seenIds);
    return allocateFrom(seen);
  }

  static String allocateFrom(Set<String> seen) {
    return PREFIX + firstFree(seen, 0);
  }

  /**
   * The number of {@code allocateId(seen)}, searched from {@code max(|seen| + 1, floor)}.
   *
   * <p>A caller whose seen set only grows may pass the number it was last given as {@code floor}:
   * every candidate between the start of that search and its answer was taken then and is still
   * taken, and the start never moves down, so the answer is the same and the search does not step
   * again past the candidates the last one stepped past. Allocation then costs O(1) amortized even
   * on a log whose ids crowd the numbers above {@code |seen|}.
   *
   * @param seen the seen ids
   * @param floor a number no larger than the answer (0 for none)
   * @return the N of the first free {@code schedule-N}
   */
  static long firstFree(Set<String> seen, long floor) {
    long n = Math.max(seen.size() + 1L, floor);
    while (seen.contains(PREFIX + n)) {
      n++;
    }
    return n;
  }
}
