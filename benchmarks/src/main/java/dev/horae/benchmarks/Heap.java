package dev.horae.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** The heap reading the footprint programs share: used heap after full collections. */
final class Heap {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private Heap() {}

  /**
   * The heap in use after three full collections: what is still reachable.
   *
   * @return bytes
   */
  static long retained() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return MEMORY.getHeapMemoryUsage().getUsed();
  }
}
