package dev.horae.spi.message;

import dev.horae.spi.time.IdSource;
import java.util.List;

/**
 * Creates user messages with ids from the injected {@link IdSource} (host contract §7.1, §12.4).
 */
public final class MessageFactory {

  private final IdSource ids;

  /**
   * Creates a factory.
   *
   * @param ids the id source
   */
  public MessageFactory(IdSource ids) {
    this.ids = ids;
  }

  /**
   * A message with one text block.
   *
   * @param text the text
   * @param source the source
   * @return the message with a fresh id
   */
  public UserMessage text(String text, MessageSource source) {
    return new UserMessage(ids.next().toString(), List.of(new ContentBlock(text)), source);
  }
}
