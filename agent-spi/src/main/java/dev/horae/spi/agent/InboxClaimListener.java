package dev.horae.spi.agent;

import dev.horae.spi.message.UserMessage;

/** Notified when the agent loop claims a queued message (host contract §5.6). */
@FunctionalInterface
public interface InboxClaimListener {

  /**
   * A message was claimed.
   *
   * @param agent the agent
   * @param message the claimed message
   * @param turn the claiming turn's number
   */
  void onClaimed(Agent agent, UserMessage message, long turn);
}
