package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.spi.session.Candidate;
import dev.horae.spi.session.CreateOptions;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store as a host mounts it: the live sessions service flushes to it and a fresh service
 * resumes from it, forks and atomic multi-event appends included.
 */
class HostIntegrationTest {

  @TempDir Path root;
  // one clock across both runtimes, so the restart sees time move on, not back
  private final AtomicLong now = new AtomicLong(Instant.parse("2026-11-30T09:00:00Z").toEpochMilli());

  private LogSessions sessionsOver(FileSessionStore store) {
    return LogSessions.over(store, () -> Instant.ofEpochMilli(now.get()), (message, cause) -> { });
  }

  @Test
  void flushedSessionsResumeInAFreshRuntime() {
    String parentId;
    String childId;
    List<SessionEvent> parentLog;
    List<SessionEvent> childLog;
    try (FileSessionStore store = FileSessionStore.open(root)) {
      LogSessions sessions = sessionsOver(store);
      Session parent = sessions.create(CreateOptions.withTimeZone("Europe/Berlin"));
      parent.append("user/message", Json.parse("{\"text\":\"remind me\"}"));
      now.addAndGet(Duration.ofSeconds(5).toMillis());
      parent.appendAll(List.of(
          Candidate.logOnly("gate/commit", Json.parse("{\"run\":\"r1\"}")),
          Candidate.logOnly("schedule/change", Json.parse("{\"op\":\"create\"}"))));
      assertThat(sessions.flush(parent).toCompletableFuture().join()).isTrue();
      Session child = sessions.fork(parent, 2, true);
      child.append("user/message", Json.parse("{\"text\":\"in the child\"}"));
      assertThat(sessions.flush(child).toCompletableFuture().join()).isTrue();
      // appended after the last flush: not durable, so not resumed
      parent.append("user/message", Json.parse("{\"text\":\"lost\"}"));
      parentId = parent.id();
      childId = child.id();
      parentLog = parent.events().subList(0, 3);
      childLog = child.events();
    }
    try (FileSessionStore store = FileSessionStore.open(root)) {
      LogSessions fresh = sessionsOver(store);
      assertThat(fresh.resumeAll()).hasSize(2);
      Session parent = fresh.get(parentId).orElseThrow();
      Session child = fresh.get(childId).orElseThrow();
      assertThat(parent.events()).isEqualTo(parentLog);
      assertThat(parent.header().timeZone()).contains("Europe/Berlin");
      assertThat(child.events()).isEqualTo(childLog);
      assertThat(child.header().parentSession()).contains(parentId);
      assertThat(child.header().seedLength()).isEqualTo(2);
      assertThat(child.events().get(2).type()).isEqualTo("session/end-seed");

      parent.append("user/message", Json.parse("{\"text\":\"again\"}"));
      assertThat(fresh.flush(parent).toCompletableFuture().join()).isTrue();
      assertThat(store.load(parentId).orElseThrow().events()).hasSize(4);
    }
  }
}
