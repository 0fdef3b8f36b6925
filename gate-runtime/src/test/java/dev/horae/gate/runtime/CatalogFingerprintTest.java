package dev.horae.gate.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalog fingerprint (gate specification §13): SHA-256 over the canonical JSON of the tool
 * descriptors sorted by id, written {@code sha256:<hex>}, so a resume against another catalog is
 * refused and the same catalog in another order is the same catalog.
 */
class CatalogFingerprintTest {

  private static final ToolDescriptor ECHO = ToolDescriptor.of("echo");
  private static final ToolDescriptor WIPE = ToolDescriptor.of("wipe");

  @Test
  void isSha256HexAndTheSameForTheSameToolsInAnyOrder() {
    String fp = CatalogFingerprint.of(List.of(ECHO, WIPE));
    assertThat(fp).matches("sha256:[0-9a-f]{64}");
    assertThat(CatalogFingerprint.of(List.of(WIPE, ECHO))).isEqualTo(fp);
  }

  @Test
  void changesWithEveryPartOfADescriptor() {
    String fp = CatalogFingerprint.of(List.of(ECHO, WIPE));
    assertThat(List.of(
        CatalogFingerprint.of(List.of(ECHO)),
        CatalogFingerprint.of(List.of(ECHO, ToolDescriptor.of("wipe2"))),
        CatalogFingerprint.of(List.of(ECHO, new ToolDescriptor("wipe", ToolRecoveryPolicy.neverReplay(), true))),
        CatalogFingerprint.of(List.of(ECHO, new ToolDescriptor("wipe", ToolRecoveryPolicy.neverReplay(), false,
            List.of("erase")))),
        CatalogFingerprint.of(List.of(ECHO, new ToolDescriptor("wipe", ToolRecoveryPolicy.neverReplay(), false,
            List.of(), true))),
        CatalogFingerprint.of(List.of(ECHO, new ToolDescriptor("wipe", new ToolRecoveryPolicy.ReplaySafe(3), false)))))
        .doesNotContain(fp).doesNotHaveDuplicates();
  }

  @Test
  void anEmptyCatalogHasAFingerprintToo() {
    assertThat(CatalogFingerprint.of(List.of())).matches("sha256:[0-9a-f]{64}")
        .isNotEqualTo(CatalogFingerprint.of(List.of(ECHO)));
  }
}
