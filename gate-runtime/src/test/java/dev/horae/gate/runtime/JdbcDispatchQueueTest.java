package dev.horae.gate.runtime;

import org.junit.jupiter.api.Tag;

/** DispatchQueue rules on the PostgreSQL backend. */
@Tag("slow")
@Tag("postgres")
class JdbcDispatchQueueTest extends DispatchQueueContract {
  @Override
  DispatchRig.Kind kind() {
    return DispatchRig.Kind.JDBC;
  }
}
