package dev.horae.testkit.time;

import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The process zone supplier of host contract §12.3, settable by tests. It counts reads so that a
 * test can check that a component reads the process zone once, at load.
 */
public final class SettableZone implements Supplier<ZoneId> {

  private volatile ZoneId zone;
  private final AtomicInteger reads = new AtomicInteger();

  /**
   * Creates the supplier.
   *
   * @param initial the zone it supplies until {@link #set} changes it
   */
  public SettableZone(ZoneId initial) {
    this.zone = initial;
  }

  /**
   * Reads the current zone and counts the read.
   *
   * @return the zone
   */
  @Override
  public ZoneId get() {
    reads.incrementAndGet();
    return zone;
  }

  /**
   * Changes the process zone for later reads.
   *
   * @param newZone the new zone
   */
  public void set(ZoneId newZone) {
    zone = newZone;
  }

  /**
   * How many times {@link #get()} was called.
   *
   * @return the read count
   */
  public int reads() {
    return reads.get();
  }
}
