package dev.horae.schedule.zone;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.zone.ZoneResolver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The bundled link table equals what ICU4J's CLDR data implies for this JDK (spec §16.4). When
 * the JDK's tzdata moves, regenerate with {@link ZoneLinkGenerator} and review the diff.
 */
class ZoneLinkTableTest {

  @Test
  void bundledTableMatchesCldrGrouping() throws IOException {
    assertThat(bundled()).isEqualTo(ZoneLinkGenerator.expectedLinks());
  }

  @Test
  void pureAliasesOnlyNotClockMerges() {
    Map<String, String> expected = ZoneLinkGenerator.expectedLinks();
    // merged by recent tzdata because their clocks agree since 1970, but separate in CLDR
    assertThat(expected).doesNotContainKeys("Europe/Amsterdam", "Atlantic/Reykjavik",
        "Europe/Copenhagen", "Europe/Oslo", "Europe/Stockholm", "Europe/Luxembourg",
        "Europe/Monaco");
    assertThat(expected).containsEntry("US/Eastern", "America/New_York")
        .containsEntry("Canada/Pacific", "America/Vancouver")
        .containsEntry("Asia/Calcutta", "Asia/Kolkata")
        .containsEntry("Europe/Kiev", "Europe/Kyiv")
        .containsEntry("Asia/Saigon", "Asia/Ho_Chi_Minh")
        .containsEntry("Etc/UTC", "UTC")
        .containsEntry("Etc/GMT", "UTC");
  }

  @Test
  void resolverUsesTheTable() {
    ZoneResolver r = ZoneResolver.standard();
    ZoneLinkGenerator.expectedLinks()
        .forEach((alias, target) -> assertThat(r.canonicalName(alias)).as(alias).contains(target));
  }

  private static Map<String, String> bundled() throws IOException {
    Map<String, String> links = new TreeMap<>();
    try (InputStream in = ZoneResolver.class.getResourceAsStream("links.tsv")) {
      assertThat(in).isNotNull();
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] parts = line.split("\t", -1);
          links.put(parts[0], parts[1]);
        }
      }
    }
    return links;
  }
}
