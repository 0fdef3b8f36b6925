package dev.horae.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The folder-name mapping at its edges: the first and last character of every plain range stays
 * as it is and its neighbours are escaped, and a name of exactly 255 characters is the longest a
 * session gets, both ways.
 */
class FolderNamesRulesTest {

  @Test
  void theEndsOfEveryPlainRangeStayAndTheirNeighboursAreEscaped() {
    for (String plain : List.of("a", "z", "A", "Z", "0", "9", "-", "_", "x.")) {
      assertThat(FolderNames.encode(plain)).as(plain).isEqualTo(plain);
      assertThat(FolderNames.decode(plain)).as(plain).contains(plain);
    }
    assertThat(FolderNames.encode("`")).isEqualTo("%60");
    assertThat(FolderNames.encode("{")).isEqualTo("%7B");
    assertThat(FolderNames.encode("@")).isEqualTo("%40");
    assertThat(FolderNames.encode("[")).isEqualTo("%5B");
    assertThat(FolderNames.encode("/")).isEqualTo("%2F");
    assertThat(FolderNames.encode(":")).isEqualTo("%3A");
    for (String foreign : List.of("`", "{", "@", "[", ":", "a b")) {
      assertThat(FolderNames.decode(foreign)).as(foreign).isEmpty();
    }
  }

  @Test
  void twoHundredFiftyFiveCharactersIsTheLongestName() {
    String longest = "x".repeat(255);
    assertThat(FolderNames.encode(longest)).isEqualTo(longest);
    assertThat(FolderNames.decode(longest)).contains(longest);
    assertThatThrownBy(() -> FolderNames.encode("x".repeat(256)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("session id is too long for a folder name (256 > 255 characters encoded)");
    assertThat(FolderNames.decode("x".repeat(256))).isEmpty();
    // the escape counts: 84 escaped bytes and 3 plain characters are 255
    String escaped = "ü".repeat(42) + "abc";
    assertThat(FolderNames.encode(escaped)).hasSize(255);
  }
}
