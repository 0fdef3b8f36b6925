package dev.horae.store;

import dev.horae.spi.session.SessionStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.jspecify.annotations.Nullable;

/** The shared store contract on the file store. */
class FileSessionStoreContractTest extends SessionStoreContract {

  @TempDir Path root;
  private @Nullable FileSessionStore store;

  @BeforeEach
  void open() {
    // opened before any test thread asks for it: one store instance per test
    store = FileSessionStore.open(root);
  }

  @Override
  SessionStore store() {
    if (store == null) {
      throw new IllegalStateException("no store");
    }
    return store;
  }

  @Override
  SessionStore reopen() {
    if (store != null) {
      store.close();
    }
    store = FileSessionStore.open(root);
    return store;
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }
}
