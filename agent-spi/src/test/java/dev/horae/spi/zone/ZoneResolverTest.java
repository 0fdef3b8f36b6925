package dev.horae.spi.zone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shared zone resolver (schedule spec §6.7, §16.4; time-context spec §9). The CLDR
 * completeness check of the link table lives in schedule-core's test scope, where ICU4J is
 * available.
 */
class ZoneResolverTest {

  private final ZoneResolver resolver = ZoneResolver.standard();

  @Test
  void shapeRuleAcceptsUtcAndAreaLocationOnly() {
    assertThat(ZoneResolver.hasAcceptedShape("UTC")).isTrue();
    assertThat(ZoneResolver.hasAcceptedShape("Asia/Shanghai")).isTrue();
    assertThat(ZoneResolver.hasAcceptedShape("America/Argentina/Buenos_Aires")).isTrue();
    assertThat(ZoneResolver.hasAcceptedShape("Etc/GMT+5")).isTrue();
    assertThat(ZoneResolver.hasAcceptedShape("utc")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("GMT")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("CST")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("+08:00")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape(" UTC")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("Asia/Shanghai ")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("1Asia/Shanghai")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("Asia/")).isFalse();
    assertThat(ZoneResolver.hasAcceptedShape("Asia//Shanghai")).isFalse();
  }

  @Test
  void specExamplesCanonicalize() {
    assertThat(resolver.canonicalName("UTC")).contains("UTC");
    assertThat(resolver.canonicalName("Etc/UTC")).contains("UTC");
    assertThat(resolver.canonicalName("US/Eastern")).contains("America/New_York");
    assertThat(resolver.canonicalName("Etc/GMT+5")).contains("Etc/GMT+5");
    assertThat(resolver.canonicalName("asia/shanghai")).contains("Asia/Shanghai");
    assertThat(resolver.canonicalName("Asia/Calcutta")).contains("Asia/Kolkata");
    assertThat(resolver.canonicalName("Europe/Kiev")).contains("Europe/Kyiv");
    assertThat(resolver.canonicalName("Asia/Saigon")).contains("Asia/Ho_Chi_Minh");
    assertThat(resolver.canonicalName("Not/A_Real_Zone")).isEmpty();
  }

  @Test
  void wholeUtcFamilyIsUtc() {
    for (String name :
        new String[] {
          "UTC", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT+0",
          "Etc/GMT-0", "Etc/GMT0", "Etc/Greenwich", "UCT", "Universal", "Zulu", "GMT", "GMT+0",
          "GMT-0", "GMT0", "Greenwich"
        }) {
      assertThat(resolver.canonicalName(name)).as(name).contains("UTC");
      assertThat(resolver.rules(name)).as(name).hasValueSatisfying(
          r -> assertThat(r.getOffset(LocalDateTime.of(2026, 1, 1, 0, 0))).isEqualTo(ZoneOffset.UTC));
    }
  }

  @Test
  void zonesThatOnlyShareClocksSince1970StayDistinct() {
    assertThat(resolver.canonicalName("Europe/Amsterdam")).contains("Europe/Amsterdam");
    assertThat(resolver.canonicalName("Europe/Brussels")).contains("Europe/Brussels");
    assertThat(resolver.sameZone("Europe/Amsterdam", "Europe/Brussels")).isFalse();
    assertThat(resolver.canonicalName("Atlantic/Reykjavik")).contains("Atlantic/Reykjavik");
    assertThat(resolver.sameZone("Atlantic/Reykjavik", "Africa/Abidjan")).isFalse();
  }

  @Test
  void equalityComparesCanonicalNames() {
    assertThat(resolver.sameZone("US/Eastern", "America/New_York")).isTrue();
    assertThat(resolver.sameZone("us/eastern", "AMERICA/NEW_YORK")).isTrue();
    assertThat(resolver.sameZone("Not/A_Zone", "Not/A_Zone")).isFalse();
  }

  @Test
  void canonicalTestIsExactSpelling() {
    assertThat(resolver.isCanonical("America/New_York")).isTrue();
    assertThat(resolver.isCanonical("UTC")).isTrue();
    assertThat(resolver.isCanonical("america/new_york")).isFalse();
    assertThat(resolver.isCanonical("US/Eastern")).isFalse();
    assertThat(resolver.isCanonical("Etc/UTC")).isFalse();
    assertThat(resolver.isCanonical("Asia/Calcutta")).isFalse();
    assertThat(resolver.isCanonical("Nowhere/Else")).isFalse();
  }

  @Test
  void caseFoldingIsAsciiOnly() {
    // U+212A KELVIN SIGN lower-cases to 'k' with String.toLowerCase; it must not reach Asia/Kolkata
    assertThat(resolver.canonicalName("Asia/\u212Aolkata")).isEmpty();
    // U+0130 and dotless i must not fold either
    assertThat(resolver.canonicalName("Europe/\u0130stanbul")).isEmpty();
    assertThat(resolver.canonicalName("EUROPE/ISTANBUL")).contains("Europe/Istanbul");
  }

  @Test
  void rulesFollowTheCanonicalZone() {
    Optional<java.time.zone.ZoneRules> eastern = resolver.rules("US/Eastern");
    assertThat(eastern).isPresent();
    assertThat(eastern.get()).isEqualTo(ZoneId.of("America/New_York").getRules());
    assertThat(resolver.rules("Nowhere/Else")).isEmpty();
  }

  @Test
  void linkTableIsWellFormed() throws IOException {
    Map<String, String> links = new LinkedHashMap<>();
    try (InputStream in = ZoneResolver.class.getResourceAsStream("links.tsv")) {
      assertThat(in).isNotNull();
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.split("\t", -1);
        assertThat(parts).as(line).hasSize(2);
        assertThat(links.put(parts[0], parts[1])).as("duplicate alias %s", parts[0]).isNull();
      }
    }
    assertThat(links).hasSizeGreaterThan(100);
    links.forEach(
        (alias, target) -> {
          assertThat(alias).as("self link").isNotEqualTo(target);
          assertThat(links).as("chain through %s", target).doesNotContainKey(target);
          assertThat(ZoneResolver.hasAcceptedShape(target)).as(target).isTrue();
          assertThat(ZoneId.getAvailableZoneIds()).as("JDK knows target %s", target).contains(target);
          assertThat(resolver.isCanonical(target)).as(target).isTrue();
          assertThat(resolver.canonicalName(alias)).as(alias).contains(target);
        });
  }

  @Test
  void everyJdkZoneHasRules() {
    for (String id : ZoneId.getAvailableZoneIds()) {
      Optional<String> canonical = resolver.canonicalName(id);
      assertThat(canonical).as(id).isPresent();
      assertThat(resolver.rules(id)).as(id).isPresent();
    }
  }
}
