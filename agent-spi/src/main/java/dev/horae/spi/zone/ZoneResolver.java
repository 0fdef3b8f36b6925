package dev.horae.spi.zone;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Resolves IANA zone names to their canonical spelling.
 *
 * <p>Known names are every region id of the JDK's time-zone database plus every alias of the
 * bundled link table ({@code links.tsv}, pure aliases only). Lookup ignores ASCII case. The
 * canonical name of an alias is its link target; any other known name is canonical as the JDK
 * spells it. Wherever the library compares zones it compares canonical names.
 *
 * <p>Thread-safe and immutable; use {@link #standard()}.
 */
public final class ZoneResolver {

  /** The Area/Location shape of schedule spec §6.7. */
  private static final Pattern AREA_LOCATION =
      Pattern.compile("[A-Za-z][A-Za-z0-9_+.-]*(/[A-Za-z0-9_+.-]+)+");

  private static final ZoneResolver STANDARD = load();

  /** lower-cased known name → properly cased known name. */
  private final Map<String, String> known;
  /** properly cased alias → canonical target. */
  private final Map<String, String> links;

  private ZoneResolver(Map<String, String> known, Map<String, String> links) {
    this.known = Map.copyOf(known);
    this.links = Map.copyOf(links);
  }

  /**
   * The resolver over the JDK's zone ids and the bundled link table.
   *
   * @return the shared resolver
   */
  public static ZoneResolver standard() {
    return STANDARD;
  }

  /**
   * Whether {@code name} is exactly {@code UTC} or has the Area/Location shape. Says nothing about
   * whether the zone exists.
   *
   * @param name a candidate zone name
   * @return true when the shape rule accepts it
   */
  public static boolean hasAcceptedShape(String name) {
    return name.equals("UTC") || AREA_LOCATION.matcher(name).matches();
  }

  /**
   * The canonical name of a known zone, ignoring ASCII case.
   *
   * @param name any zone name
   * @return the canonical name, or empty when the name is unknown
   */
  public Optional<String> canonicalName(String name) {
    String cased = known.get(asciiLower(name));
    if (cased == null) {
      return Optional.empty();
    }
    return Optional.of(links.getOrDefault(cased, cased));
  }

  /**
   * Whether {@code name} is, character for character, the canonical name of a known zone.
   *
   * @param name any zone name
   * @return true when {@code name} is canonical
   */
  public boolean isCanonical(String name) {
    return canonicalName(name).map(name::equals).orElse(false);
  }

  /**
   * Whether two names denote the same zone (equal canonical names). Unknown names equal nothing.
   *
   * @param a a zone name
   * @param b a zone name
   * @return true when both are known and share a canonical name
   */
  public boolean sameZone(String a, String b) {
    Optional<String> ca = canonicalName(a);
    return ca.isPresent() && ca.equals(canonicalName(b));
  }

  /**
   * The rules of a known zone.
   *
   * @param name any known zone name
   * @return the zone rules, or empty when unknown or when the JDK cannot load them
   */
  public Optional<ZoneRules> rules(String name) {
    return canonicalName(name).flatMap(ZoneResolver::loadRules);
  }

  private static Optional<ZoneRules> loadRules(String canonical) {
    try {
      return Optional.of(ZoneId.of(canonical).getRules());
    } catch (java.time.DateTimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Lower-cases ASCII letters only. {@code String.toLowerCase} also folds non-ASCII letters (the
   * Kelvin sign U+212A becomes {@code k}), which would let names that are not ASCII-case variants
   * of a zone resolve to it.
   */
  private static String asciiLower(String s) {
    char[] chars = s.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      char c = chars[i];
      if (c >= 'A' && c <= 'Z') {
        chars[i] = (char) (c + ('a' - 'A'));
      }
    }
    return new String(chars);
  }

  private static ZoneResolver load() {
    Map<String, String> known = new HashMap<>();
    for (String id : ZoneId.getAvailableZoneIds()) {
      known.put(asciiLower(id), id);
    }
    Map<String, String> links = new HashMap<>();
    InputStream in = ZoneResolver.class.getResourceAsStream("links.tsv");
    if (in == null) {
      throw new IllegalStateException("bundled zone link table dev/horae/spi/zone/links.tsv is missing");
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.split("\t", -1);
        if (parts.length != 2) {
          throw new IllegalStateException("malformed zone link line: " + line);
        }
        links.put(parts[0], parts[1]);
        known.put(asciiLower(parts[0]), parts[0]);
        known.putIfAbsent(asciiLower(parts[1]), parts[1]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ZoneResolver(known, links);
  }
}
