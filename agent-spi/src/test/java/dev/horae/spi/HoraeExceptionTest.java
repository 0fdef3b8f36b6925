package dev.horae.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.invariant.InvariantViolation;
import dev.horae.spi.jobs.JobsException;
import dev.horae.spi.plugin.CompositionException;
import dev.horae.spi.zone.ClientZoneException;
import org.junit.jupiter.api.Test;

/** The contract's own exceptions share the one root an embedder catches. */
class HoraeExceptionTest {

  @Test
  void theContractsExceptionsAreHoraeExceptions() {
    assertThat(HoraeException.class).isAssignableFrom(InvariantViolation.class);
    assertThat(HoraeException.class).isAssignableFrom(JobsException.class);
    assertThat(HoraeException.class).isAssignableFrom(CompositionException.class);
    assertThat(HoraeException.class).isAssignableFrom(ClientZoneException.class);
  }
}
