package dev.horae.testkit.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.Json;
import dev.horae.testkit.log.CapturingWarnings;
import dev.horae.testkit.time.ManualTime;
import java.time.Instant;

/** Shared wiring of the session tests: a manual clock, a capturing sink, a store, a service. */
abstract class SessionsFixture {

  static final Instant START = Instant.parse("2026-01-10T08:00:00Z");

  final ManualTime clock = new ManualTime(START);
  final CapturingWarnings warnings = new CapturingWarnings();
  final InMemorySessionStore store = new InMemorySessionStore();
  final InMemorySessions sessions = new InMemorySessions(clock, warnings, store);

  static JsonNode json(String text) {
    return Json.parse(text);
  }
}
