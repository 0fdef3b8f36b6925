package dev.horae.gate.runtime;

import org.junit.jupiter.api.Tag;

/** DurableDispatcher rules on the PostgreSQL backend. */
@Tag("slow")
@Tag("postgres")
class JdbcDurableDispatcherTest extends DurableDispatcherContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.JDBC;
  }
}
