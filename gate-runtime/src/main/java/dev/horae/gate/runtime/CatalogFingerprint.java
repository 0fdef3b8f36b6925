package dev.horae.gate.runtime;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.gate.runtime.internal.CommitCodec;
import dev.horae.spi.session.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * The recommended producer of a snapshot's catalog fingerprint (gate specification §13): SHA-256
 * over the canonical JSON of the tool descriptors sorted by id, written {@code sha256:<hex>}.
 */
public final class CatalogFingerprint {

  private CatalogFingerprint() {}

  /**
   * Fingerprints a tool catalog.
   *
   * @param tools the descriptors, in any order
   * @return {@code sha256:<64 lowercase hex digits>}
   */
  public static String of(List<ToolDescriptor> tools) {
    List<ToolDescriptor> sorted = new ArrayList<>(tools);
    sorted.sort(Comparator.comparing(ToolDescriptor::id));
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    for (ToolDescriptor t : sorted) {
      ObjectNode o = a.addObject();
      o.put("id", t.id());
      o.put("clientExecuted", t.clientExecuted());
      o.set("recoveryPolicy", CommitCodec.encodePolicy(t.recoveryPolicy()));
      if (t.concurrent()) {
        o.put("concurrent", true);
      }
      if (!t.aliases().isEmpty()) {
        ArrayNode aliases = o.putArray("aliases");
        t.aliases().forEach(aliases::add);
      }
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(Json.write(a).getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
