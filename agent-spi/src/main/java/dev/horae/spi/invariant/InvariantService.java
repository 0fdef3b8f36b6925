package dev.horae.spi.invariant;

import dev.horae.spi.Registration;
import java.util.function.Function;

/** Registers invariant companions (host contract §10). */
public interface InvariantService {

  /**
   * Registers a companion: validates every live session now (throwing if any is invalid), then
   * every created session and every candidate append until closed. When the service is disabled
   * this is a no-op returning a harmless handle.
   *
   * @param owner fixed owner name, e.g. {@code @deepseek-ai/dsh-tool-schedule}
   * @param installer receives {@code fail} and returns the checks
   * @return a handle that removes the companion
   * @throws InvariantViolation when an existing live session breaks the invariant
   */
  Registration register(String owner, Function<InvariantFail, InvariantChecks> installer);

  /**
   * Whether checks run.
   *
   * @return false for a disabled service
   */
  boolean enabled();
}
