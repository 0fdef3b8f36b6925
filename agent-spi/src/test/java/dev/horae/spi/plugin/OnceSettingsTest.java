package dev.horae.spi.plugin;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OnceSettingsTest {

  @Test
  void eachSettingMayBeGivenOnce() {
    OnceSettings given = new OnceSettings("time-context configuration");
    given.mark("timeZone");
    assertThatCode(() -> given.mark("refreshIntervalMs")).doesNotThrowAnyException();
    assertThatThrownBy(() -> given.mark("timeZone"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("timeZone was already set for this time-context configuration");
  }

  @Test
  void settingsOfDifferentBuildersAreIndependent() {
    new OnceSettings("runtime").mark("clock");
    assertThatCode(() -> new OnceSettings("runtime").mark("clock")).doesNotThrowAnyException();
  }
}
