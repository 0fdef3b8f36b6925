package dev.horae.store;

import static dev.horae.store.Logs.failure;
import static dev.horae.store.Logs.header;
import static dev.horae.store.Logs.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store's leases are its exclusive folder lock: held until released, no epoch, no expiry;
 * another process (here: another store instance) is refused, and so is another owner of this one.
 */
class FileSessionLeasesTest {

  @TempDir Path root;

  @Test
  void theLeaseIsTheFolderLockAndKeepsOtherStoresOut() {
    try (FileSessionStore a = FileSessionStore.open(root, SyncMode.NEVER);
        FileSessionStore b = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLeases leases = a.leases("node-a");
      SessionLease lease = leases.acquire("s");
      assertThat(lease).isEqualTo(new SessionLease.Exclusive("s", "node-a", a.root().resolve("s").resolve("gate.lock")));
      assertThat(a.ids()).as("a leased new session has no header yet").isEmpty();
      assertThat(a.contains("s")).as("its folder without a header is no session").isFalse();
      assertThatThrownBy(() -> b.leases("node-b").acquire("s"))
          .isInstanceOfSatisfying(SessionLeaseException.class,
              e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.LEASE_HELD))
          .hasCauseInstanceOf(CommitLogLockedException.class)
          .hasMessage("session s is leased by another process: commit log " + a.root().resolve("s")
              + " is locked by another process");

      leases.persist(header("s"), log(2), lease).toCompletableFuture().join();
      assertThat(a.load("s").orElseThrow().events()).isEqualTo(log(2));
      assertThat(leases.duration()).isEmpty();
      assertThat(leases.remaining(lease)).isEmpty();
      assertThat(leases.renew(lease)).contains(lease);
      assertThat(leases.current("s")).contains(lease);
      assertThat(leases.acquire("s")).as("the owner's own lease").isSameAs(lease);

      assertThat(leases.release(lease)).isTrue();
      assertThat(leases.release(lease)).isFalse();
      assertThat(leases.current("s")).isEmpty();
      assertThat(b.leases("node-b").acquire("s").owner()).isEqualTo("node-b");
    }
  }

  @Test
  void anotherOwnerOfTheSameStoreIsRefusedAndAPlainPersistToo() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLease lease = store.leases("node-a").acquire("s");
      assertThatThrownBy(() -> store.leases("node-b").acquire("s"))
          .isInstanceOf(SessionLeaseException.class)
          .hasMessage("session s is leased by owner node-a in this process (" + store.root().resolve("s").resolve("gate.lock")
              + "); owner node-b cannot acquire it");
      assertThat(lease.owner()).isEqualTo("node-a");
      assertThat(failure(store.persist(header("s"), log(1))))
          .isInstanceOfSatisfying(SessionLeaseException.class,
              e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.NOT_LEASED))
          .hasMessage("session s is leased by owner node-a in this process; a write without its lease is refused and "
              + "nothing was written");
      assertThat(store.load("s")).isEmpty();
    }
  }

  @Test
  void releasingTheSessionInTheStoreEndsItsLease() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLeases leases = store.leases("node-a");
      SessionLease lease = leases.acquire("s");
      leases.persist(header("s"), log(1), lease).toCompletableFuture().join();
      assertThat(store.release("s")).isTrue();
      assertThat(leases.renew(lease)).isEmpty();
      assertThat(failure(leases.persist(header("s"), log(2), lease)))
          .isInstanceOfSatisfying(SessionLeaseException.class,
              e -> assertThat(e.code()).isEqualTo(SessionLeaseException.Code.NOT_LEASED))
          .hasMessage("session s is not leased to owner node-a in this store (released, or the store closed); "
              + "nothing was written");
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(1));
      // unleased again, so a plain persist is the store's ordinary one
      store.persist(header("s"), log(2)).toCompletableFuture().join();
      assertThat(store.load("s").orElseThrow().events()).isEqualTo(log(2));
    }
  }

  @Test
  void aReleasedLeaseReleasedAgainLeavesTheSessionOpenedSinceWithoutOne() {
    try (FileSessionStore a = FileSessionStore.open(root, SyncMode.NEVER);
        FileSessionStore b = FileSessionStore.open(root, SyncMode.NEVER)) {
      SessionLeases leases = a.leases("node-a");
      SessionLease lease = leases.acquire("s");
      leases.persist(header("s"), log(1), lease).toCompletableFuture().join();
      assertThat(leases.release(lease)).isTrue();
      // a plain load opens (and locks) the session again, with no lease
      assertThat(a.load("s").orElseThrow().events()).isEqualTo(log(1));
      assertThat(leases.release(lease)).as("the old lease is not the session's").isFalse();
      assertThatThrownBy(() -> b.load("s"))
          .as("the session stays open and locked in store a")
          .isInstanceOf(CommitLogLockedException.class);
      assertThat(a.release("s")).isTrue();
    }
  }

  @Test
  void badInputGetsClearErrors() {
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThatThrownBy(() -> store.leases(" "))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("a lease owner must be a non-blank id, got \" \"");
      SessionLeases leases = store.leases("node-a");
      assertThatThrownBy(() -> leases.acquire(""))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("a leased session id must not be blank");
      SessionLease lease = leases.acquire("s");
      SessionLease fenced = new SessionLease.Fenced("s", "node-a", 1, Instant.EPOCH);
      assertThat(failure(leases.persist(header("s"), log(1), fenced)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the file session store leases by its exclusive lock; " + fenced + " is not an exclusive lease");
      assertThat(failure(leases.persist(header("t"), log(1), lease)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("lease " + lease + " is for session s, not t");
      assertThatThrownBy(() -> leases.renew(fenced)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> leases.release(fenced)).isInstanceOf(IllegalArgumentException.class);
      assertThat(store.ids()).isEmpty();
    }
  }
}
