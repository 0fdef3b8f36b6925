package dev.horae.store;

/**
 * One session's entry in a {@link DueIndex}.
 *
 * @param sessionId the session
 * @param dueAtMs when it is due, in epoch milliseconds of the clock its log's events were
 *     stamped with
 */
public record DueEntry(String sessionId, long dueAtMs) {}
