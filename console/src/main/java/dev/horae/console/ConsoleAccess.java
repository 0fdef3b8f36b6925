package dev.horae.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Who may use the console (docs/operations.md, "Web console", "Access"): the one home of the
 * rule both {@code horae console} and the starter's mounted console apply.
 *
 * <ol>
 *   <li>A request carrying the access token (the {@code horae_token} cookie, or {@code
 *       Authorization: Bearer T}) is let in.
 *   <li>Otherwise, when local requests need no token, a <em>local</em> request is let in if its
 *       {@code Host} names a loopback host ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}):
 *       a page of another site whose DNS name was rebound to 127.0.0.1 arrives with that name and
 *       is refused. Local means the connection's peer is a loopback address <em>and</em> the
 *       request carries no forwarding header ({@code Forwarded}, {@code X-Forwarded-*}, {@code
 *       X-Real-IP}): a reverse proxy on the same machine connects from loopback, so a forwarded
 *       request counts as remote, and no forwarding header is ever trusted to make one local.
 *   <li>Anything else is refused: {@code 401} when a token exists, {@code 403 notLocal} when none
 *       does (the console then serves local requests only).
 * </ol>
 */
public final class ConsoleAccess {

  /** The cookie that carries the access token once the page was opened with {@code ?token=}. */
  public static final String TOKEN_COOKIE = "horae_token";

  private static final List<String> FORWARDING = List.of("Forwarded", "X-Forwarded-For", "X-Forwarded-Host",
      "X-Forwarded-Proto", "X-Real-IP");

  private final @Nullable String token;
  private final boolean localWithoutToken;

  private ConsoleAccess(@Nullable String token, boolean localWithoutToken) {
    this.token = token;
    this.localWithoutToken = localWithoutToken;
  }

  /**
   * The rule.
   *
   * @param token the access token, if there is one
   * @param localWithoutToken whether a local request is let in without the token
   * @return the rule
   * @throws IllegalArgumentException when the token is blank, or there is neither a token nor
   *     local access (nobody could get in)
   */
  public static ConsoleAccess of(Optional<String> token, boolean localWithoutToken) {
    if (token.isPresent() && token.get().isBlank()) {
      throw new IllegalArgumentException("the console's access token is blank");
    }
    if (token.isEmpty() && !localWithoutToken) {
      throw new IllegalArgumentException("a console without an access token must let local requests in");
    }
    return new ConsoleAccess(token.orElse(null), localWithoutToken);
  }

  /**
   * Whether there is an access token.
   *
   * @return true when a token lets requests in
   */
  public boolean hasToken() {
    return token != null;
  }

  /**
   * Whether {@code host} (a {@code Host} header, with or without its port) names a loopback host.
   *
   * @param host the header's value
   * @return true for {@code localhost}, {@code 127.0.0.1} and {@code [::1]}
   */
  public static boolean loopbackName(String host) {
    String name = hostName(host).toLowerCase(Locale.ROOT);
    return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
  }

  /** Whether {@code given} is the token; false when there is none. */
  boolean isToken(String given) {
    String t = token;
    return t != null && same(given, t);
  }

  /** Lets the request in, or says why not. */
  void check(ConsoleRequest r) throws Console.Refusal {
    String host = r.header("Host");
    if (host == null) {
      throw new Console.Refusal(400, "badHost", "the request has no Host header");
    }
    if (carriesToken(r)) {
      return;
    }
    if (localWithoutToken && local(r)) {
      if (!loopbackName(host)) {
        throw new Console.Refusal(403, "badHost", "Host " + host + " is not a loopback name; open the console at "
            + "localhost or 127.0.0.1");
      }
      return;
    }
    if (token == null) {
      throw new Console.Refusal(403, "notLocal", "this console answers local requests only (from a loopback "
          + "address, not through a proxy): it has no access token for anything else");
    }
    throw new Console.Refusal(401, "unauthorized", "this console needs its access token: open /?token=T once, "
        + "or send Authorization: Bearer T");
  }

  private static boolean local(ConsoleRequest r) {
    return r.peerLoopback() && FORWARDING.stream().allMatch(h -> r.header(h) == null);
  }

  private boolean carriesToken(ConsoleRequest r) {
    if (token == null) {
      return false;
    }
    String auth = r.header("Authorization");
    if (auth != null && auth.startsWith("Bearer ") && isToken(auth.substring("Bearer ".length()))) {
      return true;
    }
    for (String cookies : r.headerValues("Cookie")) {
      for (String c : cookies.split(";", -1)) {
        String kv = c.trim();
        if (kv.startsWith(TOKEN_COOKIE + "=") && isToken(kv.substring(TOKEN_COOKIE.length() + 1))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String hostName(String host) {
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      return close < 0 ? host : host.substring(0, close + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  /** Compares in constant time, so the comparison does not tell how much of a guess was right. */
  static boolean same(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
