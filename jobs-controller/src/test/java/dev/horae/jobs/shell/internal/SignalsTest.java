package dev.horae.jobs.shell.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.jobs.shell.internal.Signals.Platform;
import org.junit.jupiter.api.Test;

/**
 * The signal tables of jobs spec §7.3: exit value 128 + S names signal S, from 1 to 31 on Linux
 * and macOS, nothing outside that range, and nothing at all on Windows; the platform comes from
 * {@code os.name}.
 */
class SignalsTest {

  @Test
  void theEndsAndTheDifferingEntriesOfBothTables() {
    assertThat(Signals.fromExitValue(Platform.LINUX, 129)).contains("SIGHUP");
    assertThat(Signals.fromExitValue(Platform.LINUX, 143)).contains("SIGTERM");
    assertThat(Signals.fromExitValue(Platform.LINUX, 137)).contains("SIGKILL");
    assertThat(Signals.fromExitValue(Platform.LINUX, 135)).contains("SIGBUS");
    assertThat(Signals.fromExitValue(Platform.LINUX, 159)).contains("SIGSYS");
    assertThat(Signals.fromExitValue(Platform.MACOS, 135)).contains("SIGEMT");
    assertThat(Signals.fromExitValue(Platform.MACOS, 138)).contains("SIGBUS");
    assertThat(Signals.fromExitValue(Platform.MACOS, 159)).contains("SIGUSR2");
  }

  @Test
  void valuesOutsideTheTableAreNoSignal() {
    for (int value : new int[] {0, 3, 127, 128, 160, 255, -1}) {
      assertThat(Signals.fromExitValue(Platform.LINUX, value)).as("%d", value).isEmpty();
      assertThat(Signals.fromExitValue(Platform.MACOS, value)).as("%d", value).isEmpty();
    }
    assertThat(Signals.fromExitValue(Platform.WINDOWS, 143)).isEmpty();
    assertThat(Signals.fromExitValue(Platform.WINDOWS, 129)).isEmpty();
  }

  @Test
  void thePlatformComesFromTheOsName() {
    assertThat(Platform.of("Linux")).isEqualTo(Platform.LINUX);
    assertThat(Platform.of("Mac OS X")).isEqualTo(Platform.MACOS);
    assertThat(Platform.of("Darwin")).isEqualTo(Platform.MACOS);
    assertThat(Platform.of("Windows 11")).isEqualTo(Platform.WINDOWS);
    assertThat(Platform.of("FreeBSD")).isEqualTo(Platform.LINUX);
  }
}
