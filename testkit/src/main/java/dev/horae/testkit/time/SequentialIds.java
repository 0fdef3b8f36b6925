package dev.horae.testkit.time;

import dev.horae.spi.time.IdSource;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Deterministic message ids (host contract §12.4): the n-th id is the version-4 shaped UUID
 * {@code 00000000-0000-4000-8000-<n as 12 hex digits>}, starting at 1. Thread-safe.
 */
public final class SequentialIds implements IdSource {

  private static final long VERSION_4_HIGH = 0x0000_0000_0000_4000L;
  private static final long VARIANT_LOW = 0x8000_0000_0000_0000L;
  private static final long MAX_COUNTER = 0x0000_FFFF_FFFF_FFFFL;

  private final AtomicLong issued = new AtomicLong();

  /** Creates a source whose first id ends in {@code ...000000000001}. */
  public SequentialIds() {}

  /**
   * The id the n-th call of {@link #next()} returns, without issuing it.
   *
   * @param n one-based position
   * @return the id
   * @throws IllegalArgumentException when {@code n} is not in {@code 1..2^48-1}
   */
  public static UUID idNumber(long n) {
    if (n < 1 || n > MAX_COUNTER) {
      throw new IllegalArgumentException("id number must be in 1..2^48-1, got " + n);
    }
    return new UUID(VERSION_4_HIGH, VARIANT_LOW | n);
  }

  /**
   * The next id.
   *
   * @return {@code 00000000-0000-4000-8000-000000000001}, then {@code ...0002}, and so on
   */
  @Override
  public UUID next() {
    return idNumber(issued.incrementAndGet());
  }

  /**
   * How many ids were issued.
   *
   * @return the count
   */
  public long issued() {
    return issued.get();
  }
}
