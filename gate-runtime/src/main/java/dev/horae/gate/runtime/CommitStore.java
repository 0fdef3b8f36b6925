package dev.horae.gate.runtime;

import java.util.concurrent.CompletionStage;

/**
 * Appends {@link ThreadCommit}s atomically under {@link CommitConditions} and serves the {@link
 * CommittedThreadView} (gate specification §12.1). One commit is all-or-nothing.
 */
public interface CommitStore extends AutoCloseable {

  /**
   * Commits atomically.
   *
   * @param commit the commit
   * @param conditions the conditions applied atomically with the append
   * @return a stage with where the commit landed; it fails with {@link CommitRejectedException}
   *     when a condition rejects it (nothing written), or {@link CommitStoreException} on a store
   *     failure
   */
  CompletionStage<CommitRecord> commit(ThreadCommit commit, CommitConditions conditions);

  /**
   * The committed view.
   *
   * @return the view
   */
  CommittedThreadView view();

  /**
   * The in-memory backend: no durability, linearisable commits; the executable reference for the
   * store conditions.
   *
   * @return a new empty store
   */
  static CommitStore inMemory() {
    return new InMemoryCommitStore();
  }

  /** Releases resources; the default does nothing. */
  @Override
  default void close() {}
}
