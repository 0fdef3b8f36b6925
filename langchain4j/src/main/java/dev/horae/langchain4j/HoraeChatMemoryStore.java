package dev.horae.langchain4j;

import dev.horae.runtime.HoraeRuntime;
import dev.horae.spi.model.History;
import dev.horae.spi.session.Session;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A LangChain4j chat memory that is a read projection of Horae's session log: the memory of id
 * {@code m} is the model-visible history ({@link History}) of the session {@code
 * String.valueOf(m)}, live if an agent holds it, else as stored, else empty, mapped by {@link
 * LangChain4jMapping#toMessages}. Reminder turns, job notices and time readings that Horae wrote
 * are in it; so are the borrowed loop's own turns, which {@link BorrowedLoop} records in the log as
 * they happen.
 *
 * <p>Writes are not the log's source: {@link #updateMessages} keeps nothing (what AiServices adds
 * is recorded from the call itself, and a window that drops old messages never drops them from the
 * log), and {@link #deleteMessages} fails with {@link BorrowedLoopException#APPEND_ONLY}, because
 * a session log is never edited. A system message is not part of the log either: the borrowed
 * loop sends the one of the current call.
 */
public final class HoraeChatMemoryStore implements ChatMemoryStore {

  private final HoraeRuntime horae;

  /**
   * The projection of a runtime's sessions.
   *
   * @param horae the runtime
   */
  public HoraeChatMemoryStore(HoraeRuntime horae) {
    this.horae = Objects.requireNonNull(horae, "horae");
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    return LangChain4jMapping.toMessages(History.of(events(String.valueOf(memoryId))));
  }

  /**
   * Keeps nothing: the session log is written by the borrowed loop's recording, not by the memory.
   *
   * @param memoryId the memory id
   * @param messages ignored
   */
  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    // the projection is recomputed from the log on every read
  }

  /**
   * Refuses: a session log is append-only.
   *
   * @param memoryId the memory id
   * @throws BorrowedLoopException {@code append-only}, always
   */
  @Override
  public void deleteMessages(Object memoryId) {
    throw new BorrowedLoopException(BorrowedLoopException.APPEND_ONLY,
        "the memory of \"" + memoryId + "\" is the Horae session log, which is append-only: it cannot be cleared");
  }

  private List<SessionEvent> events(String sessionId) {
    Optional<? extends Session> live = horae.sessions().get(sessionId);
    if (live.isPresent()) {
      return live.get().events();
    }
    return horae.store().load(sessionId).map(StoredSession::events).orElse(List.of());
  }
}
