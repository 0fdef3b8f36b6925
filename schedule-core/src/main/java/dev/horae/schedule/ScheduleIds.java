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
    long n = seen.size() + 1L;
    String candidate = PREFIX + n;
    while (seen.contains(candidate)) {
      n++;
      candidate = PREFIX + n;
    }
    return candidate;
  }
}
