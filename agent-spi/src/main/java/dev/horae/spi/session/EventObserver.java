package dev.horae.spi.session;

/**
 * An event observer (host contract §3.6): runs inside {@code append}, after the event is added. A
 * failure is contained and logged; it never undoes the append.
 */
@FunctionalInterface
public interface EventObserver {

  /**
   * Notified of one committed event.
   *
   * @param session the session appended to
   * @param event the committed event
   */
  void onEvent(Session session, SessionEvent event);
}
