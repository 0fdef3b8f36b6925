package dev.horae.store;

import dev.horae.spi.session.SessionStore;
import java.util.Optional;

/** A store that can keep a {@link DueIndex}: the file, JDBC and in-memory stores of this module. */
public interface DueIndexed extends SessionStore {

  /**
   * The store's due index.
   *
   * @return the index, or empty when the store was opened without a {@link DueIndexer}
   */
  Optional<DueIndex> dueIndex();
}
