package dev.horae.console;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the console shows and does, as JSON documents: the request routine ({@link Console}) only
 * routes, checks access and serializes. Every method but {@link #answer} only reads the store.
 * A failure is a {@link ConsoleFailure}, whose kind fixes the HTTP status; the message is kept.
 */
public interface ConsoleBackend {

  /**
   * Every session, as {@code horae --json sessions} lists it.
   *
   * @return {@code {sessions: [...], unreadable: [{session, message}]}}
   */
  JsonNode sessions();

  /**
   * One session's timeline: turns, readings, reminders and their dispatches, tool calls, job
   * notices and gate facts, oldest first.
   *
   * @param session the session id
   * @return {@code {session, state, entries: [{seq, time, kind, title, detail}]}}
   * @throws ConsoleFailure {@code NOT_FOUND} when there is no such session
   */
  JsonNode timeline(String session);

  /**
   * The reminders still scheduled and the dispatched ones with their lateness, with the clock's
   * reading the due times are measured from.
   *
   * @return {@code {now, scheduled: [...], dispatched: [...]}}
   */
  JsonNode reminders();

  /**
   * The calls parked on a committed ticket, as {@code horae --json runs --awaiting} lists them.
   *
   * @return {@code {canAnswer, awaiting: [...]}}
   */
  JsonNode awaiting();

  /**
   * Answers a parked call through the same path as {@code horae approve} and {@code horae deny}.
   *
   * @param runId the run, {@code <session>/turn-<n>}
   * @param approve true to approve, false to deny
   * @param reason the denial's reason (told to the model); ignored for an approval
   * @return what {@code horae --json approve} prints
   * @throws ConsoleFailure of the kind {@code horae approve} would exit with
   */
  JsonNode answer(String runId, boolean approve, String reason);
}
