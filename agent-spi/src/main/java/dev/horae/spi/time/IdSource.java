package dev.horae.spi.time;

import java.util.UUID;

/** Supplies fresh message ids (host contract §12.4); tests inject a deterministic one. */
@FunctionalInterface
public interface IdSource {

  /**
   * A fresh id.
   *
   * @return a UUID
   */
  UUID next();

  /**
   * Random version-4 UUIDs.
   *
   * @return the production id source
   */
  static IdSource random() {
    return UUID::randomUUID;
  }
}
