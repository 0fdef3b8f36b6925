package dev.horae.schedule.zone;

import com.ibm.icu.util.TimeZone;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Generates the pure-alias link table of spec §16.4 from ICU4J's CLDR data (test scope only, so
 * the library carries no ICU dependency).
 *
 * <p>For every region id of the JDK, the canonical name is CLDR's group ({@code
 * TimeZone.getCanonicalID}) spelled the current IANA way ({@code TimeZone.getIanaID}); the UTC and
 * GMT groups both canonicalize to {@code UTC}. Only JDK ids are listed, so ICU-only legacy ids such
 * as {@code IST} or {@code CST} never become known names.
 *
 * <p>Regenerate by running {@link #main} on the schedule-core test class path with the path of
 * {@code agent-spi/src/main/resources/dev/horae/spi/zone/links.tsv}, then rebuild agent-spi.
 */
public final class ZoneLinkGenerator {

  /** The header line of the generated file. */
  static final String HEADER =
      "# alias<TAB>canonical: pure aliases only (schedule spec §16.4), generated from ICU4J "
          + "(CLDR grouping, IANA spelling) over the JDK's zone ids; checked by ZoneLinkTableTest.";

  /**
   * The UTC family spec §16.4 lists by name. Some ({@code GMT+0}, {@code GMT-0}) are not JDK region
   * ids, so they are added explicitly.
   */
  static final Set<String> SPEC_UTC_FAMILY =
      Set.of(
          "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT+0", "Etc/GMT-0",
          "Etc/GMT0", "Etc/Greenwich", "UCT", "Universal", "Zulu", "GMT", "GMT+0", "GMT-0", "GMT0",
          "Greenwich");

  private ZoneLinkGenerator() {}

  /**
   * The alias table ICU implies for the running JDK's zone ids.
   *
   * @return alias → canonical, sorted by alias
   */
  static Map<String, String> expectedLinks() {
    Set<String> jdk = ZoneId.getAvailableZoneIds();
    TreeMap<String, String> links = new TreeMap<>();
    for (String id : new TreeSet<>(jdk)) {
      String cldr = TimeZone.getCanonicalID(id);
      if (cldr == null) {
        continue;
      }
      String canonical = TimeZone.getIanaID(cldr);
      if (canonical == null) {
        continue;
      }
      if (canonical.equals("Etc/UTC") || canonical.equals("Etc/GMT")) {
        canonical = "UTC";
      }
      if (!canonical.equals(id)) {
        links.put(id, canonical);
      }
    }
    for (String name : SPEC_UTC_FAMILY) {
      links.put(name, "UTC");
    }
    return links;
  }

  /**
   * The ICU data version the table was derived from.
   *
   * @return e.g. {@code 2025a}
   */
  static String icuDataVersion() {
    return TimeZone.getTZDataVersion();
  }

  /**
   * Writes the table.
   *
   * @param args the output path
   * @throws IOException when the file cannot be written
   */
  public static void main(String[] args) throws IOException {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    out.append("# ICU tzdata ").append(icuDataVersion()).append('\n');
    expectedLinks().forEach((alias, target) -> out.append(alias).append('\t').append(target).append('\n'));
    Files.writeString(Path.of(args[0]), out.toString(), StandardCharsets.UTF_8);
  }
}
