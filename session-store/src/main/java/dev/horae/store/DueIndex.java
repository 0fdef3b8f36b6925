package dev.horae.store;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A store's durable due index: session id → the session's due time as its {@link DueIndexer}
 * computed it from the log. The store updates an entry in the same persist as the events that move
 * it (the same transaction on PostgreSQL, under the same lock in memory, right after the fsync on
 * the file store), so a refused persist moves nothing. The log stays the truth: {@link #rebuild}
 * recomputes every entry that is missing or older than its log.
 *
 * <p>Get one from a store opened with an indexer ({@link DueIndexed#dueIndex}); a host serves it
 * with the runtime's {@code DueSessions} worker ({@code docs/persistence.md}, "The due index").
 */
public interface DueIndex {

  /** How many due sessions a claim or a worker's pass reads at least, to pass over held ones. */
  int CLAIM_WINDOW = 1024;

  /**
   * The sessions due at {@code nowMs} or earlier, earliest first (ties by session id).
   *
   * @param nowMs the caller's time, epoch milliseconds
   * @param limit at most this many
   * @return the entries
   * @throws SessionStoreException when the store fails
   */
  List<DueEntry> dueBy(long nowMs, int limit);

  /**
   * One session's entry.
   *
   * @param sessionId the session
   * @return its due time, or empty when nothing in it is due (or it is not indexed)
   * @throws SessionStoreException when the store fails
   */
  OptionalLong dueAt(String sessionId);

  /**
   * The earliest due time of any session, for the next wake of a worker.
   *
   * @return the earliest entry's time, or empty when no session is due
   * @throws SessionStoreException when the store fails
   */
  OptionalLong earliest();

  /**
   * Recomputes, from the logs, every entry that is missing or was computed at another log length
   * than the log now has (a store written without an indexer, by an older library, or a file
   * store whose process died between a flush's fsync and its index write).
   *
   * @return how many sessions were recomputed
   * @throws SessionStoreException when the store fails
   */
  int rebuild();

  /**
   * Claims up to {@code limit} due sessions for the owner of {@code leases}: each returned lease
   * was acquired for it, so no other owner can open that session until it is released or expires.
   * Sessions in {@code skip} (open on the caller's node already) and sessions another owner holds
   * are passed over. This default reads up to {@link #CLAIM_WINDOW} due sessions (more when {@code
   * limit} and {@code skip} need more) and acquires them one after another, each refusal ({@code
   * lease-held}) skipping one, so sessions other owners hold at the head of the index do not starve
   * the ones behind them; the JDBC store claims in one transaction with {@code FOR UPDATE SKIP
   * LOCKED}, passing over held sessions in the query, so concurrent claimers on several nodes never
   * take the same session.
   *
   * @param leases the claiming owner's leases on this index's store
   * @param nowMs the caller's time, epoch milliseconds
   * @param limit at most this many
   * @param skip sessions not to claim
   * @return the acquired leases, earliest due first
   * @throws SessionStoreException when the store fails
   */
  default List<SessionLease> claim(SessionLeases leases, long nowMs, int limit, Set<String> skip) {
    List<SessionLease> claimed = new ArrayList<>();
    if (limit <= 0) {
      return claimed;
    }
    for (DueEntry entry : dueBy(nowMs, Math.max(CLAIM_WINDOW, limit + skip.size()))) {
      if (claimed.size() == limit) {
        break;
      }
      if (skip.contains(entry.sessionId())) {
        continue;
      }
      try {
        claimed.add(leases.acquire(entry.sessionId()));
      } catch (SessionLeaseException e) {
        if (e.code() != SessionLeaseException.Code.LEASE_HELD) {
          throw e;
        }
        // another owner serves it: its own worker dispatches
      }
    }
    return claimed;
  }
}
