package dev.horae.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FolderNamesTest {

  @Test
  void plainIdsStayReadable() {
    assertThat(FolderNames.encode("session-01_a.b")).isEqualTo("session-01_a.b");
  }

  @Test
  void unsafeCharactersArePercentEncoded() {
    assertThat(FolderNames.encode("..")).isEqualTo("%2E.");
    assertThat(FolderNames.encode("a/b")).isEqualTo("a%2Fb");
    assertThat(FolderNames.encode("ü")).isEqualTo("%C3%BC");
    assertThat(FolderNames.encode("%")).isEqualTo("%25");
  }

  @Test
  void decodingInvertsEncoding() {
    for (String id : List.of("a", "..", ".x", "a/b\\c:d", "Zeit ü \ud83d\udd70", "%41", "x.y.z")) {
      assertThat(FolderNames.decode(FolderNames.encode(id))).contains(id);
    }
  }

  @Test
  void foreignNamesAreNotIds() {
    assertThat(FolderNames.decode(".git")).isEmpty();
    assertThat(FolderNames.decode("a b")).isEmpty();
    assertThat(FolderNames.decode("%4")).isEmpty();
    assertThat(FolderNames.decode("%zz")).isEmpty();
    // a non-canonical spelling of "A" is not a name this store writes
    assertThat(FolderNames.decode("%41")).isEmpty();
    assertThat(FolderNames.decode("")).isEmpty();
  }

  @Test
  void anEmptyIdHasNoFolder() {
    assertThatThrownBy(() -> FolderNames.encode(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("session id must not be empty");
  }

  @Test
  void unpairedSurrogatesAreRefusedBecauseUtf8CannotHoldThem() {
    // getBytes would turn both into "?": two ids, one folder, and a header naming neither
    assertThatThrownBy(() -> FolderNames.encode("a\ud800"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("session id must not hold an unpaired surrogate (at index 1)");
    assertThatThrownBy(() -> FolderNames.encode("\udc00\ud800x"))
        .hasMessage("session id must not hold an unpaired surrogate (at index 0)");
    assertThat(FolderNames.encode("\ud83d\udd70")).isEqualTo("%F0%9F%95%B0");
  }

  @Test
  void aHugeIdIsMeasuredBeforeItIsFormatted() {
    // found by the fuzz module: a megabyte id was percent-encoded byte by byte before its length
    // was checked, about a second of CPU per call
    assertThatThrownBy(() -> FolderNames.encode("/".repeat(4_000_000)))
        .hasMessage("session id is too long for a folder name (12000000 > 255 characters encoded)");
    assertThat(FolderNames.decode("x".repeat(4_000_000))).isEmpty();
  }

  @Test
  void overlongIdsAreRefused() {
    assertThatThrownBy(() -> FolderNames.encode("\u00fc".repeat(50)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("session id is too long for a folder name (300 > 255 characters encoded)");
  }
}
