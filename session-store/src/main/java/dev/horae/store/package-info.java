/**
 * The session log and the stores behind it.
 *
 * <p>{@link dev.horae.store.LogSessions} is the live sessions service of host contract §3 and §4:
 * linearizable appends with vetoing validators and contained observers, create, fork, resume and
 * the flush checkpoint, over any {@link dev.horae.spi.session.SessionStore}. It lives here, below
 * the runtime and the gate engine, so both (and their tests) use the one implementation.
 * {@link dev.horae.store.MemorySessionStore} keeps copies in the process.
 *
 * <p>{@link dev.horae.store.FileSessionStore} is the embedded default: one folder per session with
 * its header and an append-only file of CRC32C-framed JSON lines, one line per flush, fsynced
 * before the flush is acknowledged, concurrent flushes grouped into one fsync, a torn last line
 * repaired on open, corruption anywhere else refused ({@link
 * dev.horae.store.CommitLogCorruptException}) and an exclusive lock per session ({@link
 * dev.horae.store.CommitLogLockedException}). The gate runtime's commits are atomic multi-event
 * appends to the same logs ({@code spec/gate.md} §12.0), so this store is also its durable commit
 * store.
 *
 * <p>{@link dev.horae.store.JdbcSessionStore} keeps the same logs in PostgreSQL through a
 * host-supplied {@code DataSource}, for more than one machine: one transaction per persist, the
 * session row locked so concurrent persists take turns, every node reading every node's commits.
 * Both stores obey one contract: a log contiguous from seq 0 that continues what is stored, an
 * immutable header, forks stored with their seed, and stale snapshots accepted as already stored.
 *
 * <p>{@link dev.horae.store.SessionLeases} keeps a session writable on one node at a time: a node
 * acquires a session's lease (owner, epoch, expiry) and every persist under it is checked against
 * the recorded owner and epoch in the same transaction as its insert, so a displaced node's write is
 * refused ({@link dev.horae.store.SessionLeaseException}) and writes nothing. {@link
 * dev.horae.store.SessionLeaseKeeper} holds and renews a node's leases and reports lost ones;
 * {@link dev.horae.store.LogSessions#leased} opens sessions under them. The file store's lease is
 * its exclusive lock ({@link dev.horae.store.SessionLease.Exclusive}).
 */
@NullMarked
package dev.horae.store;

import org.jspecify.annotations.NullMarked;
