package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The table prefix is spliced into every statement of the JDBC store, so anything but a short
 * lowercase identifier is refused when the store is created, before any connection is opened.
 * Runs without a database: the data source fails the test if it is touched.
 */
class JdbcTablePrefixTest {

  private final AtomicInteger touched = new AtomicInteger();

  private final DataSource untouchable = (DataSource) Proxy.newProxyInstance(
      DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
        touched.incrementAndGet();
        throw new AssertionError("the data source was used: " + method.getName());
      });

  @Test
  void prefixesThatAreNotLowercaseIdentifiersAreRefusedBeforeAnyConnection() {
    List<String> hostile = List.of("", " horae_", "horae_ ", "1horae", "Horae_", "HORAE", "horae-x", "horae.x",
        "horae_; DROP TABLE horae_event; --", "horae_\n", "horae_\u0000", "\"q\"", "h\u00f6rae_", "horae_\u0131",
        "a".repeat(32), "x$", "public.horae_", "/* */");
    for (String prefix : hostile) {
      assertThatThrownBy(() -> JdbcSessionStore.create(untouchable, prefix))
          .as("prefix %s", prefix)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("table prefix must match [a-z_][a-z0-9_]{0,30}, got \"" + prefix + "\"");
    }
    assertThat(touched).hasValue(0);
  }

  @Test
  void identifierPrefixesNameEveryTableWithoutQuoting() {
    for (String prefix : List.of("_", "horae_", "a".repeat(31), "t1_")) {
      JdbcSessionStore store = JdbcSessionStore.create(untouchable, prefix);
      assertThat(store.ddl()).hasSize(10).allMatch(s -> s.startsWith("CREATE TABLE IF NOT EXISTS " + prefix)
          || s.startsWith("CREATE INDEX IF NOT EXISTS " + prefix + "due_at ON " + prefix + "due ")
          || s.startsWith("ALTER TABLE " + prefix + "session ") || s.startsWith("UPDATE " + prefix + "session "));
    }
    assertThat(touched).hasValue(0);
  }
}
