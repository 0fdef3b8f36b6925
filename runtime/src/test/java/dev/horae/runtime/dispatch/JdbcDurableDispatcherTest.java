package dev.horae.runtime.dispatch;

import org.junit.jupiter.api.Tag;

/** The durable dispatcher's rules with its dispatch records in PostgreSQL. */
@Tag("slow")
@Tag("postgres")
class JdbcDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.JDBC;
  }
}
