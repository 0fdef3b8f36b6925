package dev.horae.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.spi.session.StoredSession;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Child-JVM main of {@link CrashTest} (args: store root, seed): resumes session {@code crash},
 * prints {@code ready <length>}, then runs three writer threads that append atomic batches of 1..5
 * events to the shared log and persist their snapshot concurrently (so persists share fsyncs),
 * each printing {@code ack <length> <file bytes>} only after its persist completed, until killed.
 *
 * <p>Every event says which batch it belongs to ({@code batch} = the batch's first seq, {@code
 * of} = its size) so the parent can tell a half-written batch from a whole one. Now and then a
 * thread forks the acknowledged part of the log instead (session {@code fork-<seed length>}, seed
 * plus an end-seed marker) and prints {@code fork <seed length>} once that first persist completed.
 */
public final class CrashWriter {

  static final String SESSION = "crash";
  static final SessionHeader HEADER = SessionHeader.root(SESSION, 0, Optional.empty());
  private static final int THREADS = 3;
  private static final int MAX_FLUSHES = 100_000;
  private static final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);

  private final FileSessionStore store;
  private final Path events;
  private final Random random;
  private final List<SessionEvent> log;
  private final Set<Long> forked = new HashSet<>();
  /** The longest snapshot whose ack was printed (or that was loaded): forks copy only that. */
  private long acknowledged;

  private CrashWriter(FileSessionStore store, Path events, Random random, List<SessionEvent> log) {
    this.store = store;
    this.events = events;
    this.random = random;
    this.log = log;
    this.acknowledged = log.size();
  }

  /** The fork of the log at a given length. */
  static String forkId(long seedLength) {
    return "fork-" + seedLength;
  }

  private static synchronized void print(String line) {
    out.print(line + "\n");
    out.flush();
    if (out.checkError()) {
      // the parent's end of the pipe is closed: its JVM was killed (a PIT or fork timeout) before
      // it could kill this writer, which would otherwise fork ever longer logs until the disk fills
      Runtime.getRuntime().halt(2);
    }
  }

  /** One writer thread: take the next step under the log's lock, persist outside it. */
  private void write() throws IOException {
    for (int flush = 0; flush < MAX_FLUSHES; flush++) {
      List<SessionEvent> snapshot;
      boolean fork;
      synchronized (log) {
        fork = random.nextInt(8) == 0 && forked.add(acknowledged);
        if (fork) {
          // a fork copies only acknowledged events, which no crash may lose from the parent
          snapshot = List.copyOf(log.subList(0, (int) acknowledged));
        } else {
          appendBatch();
          snapshot = List.copyOf(log);
        }
      }
      if (fork) {
        fork(snapshot);
        continue;
      }
      store.persist(HEADER, snapshot).toCompletableFuture().join();
      // at least the end of this persist's line: earlier lines are never cut
      print("ack " + snapshot.size() + " " + Files.size(events));
      synchronized (log) {
        acknowledged = Math.max(acknowledged, snapshot.size());
      }
    }
  }

  private void appendBatch() {
    int size = 1 + random.nextInt(5);
    long first = log.size();
    for (int i = 0; i < size; i++) {
      long seq = log.size();
      ObjectNode data = Json.mapper().createObjectNode();
      data.put("n", seq);
      data.put("batch", first);
      data.put("of", size);
      data.put("pad", "x".repeat(random.nextInt(4_000)));
      // the store writes only the time it is given
      log.add(SessionEvent.of(seq, "crash/event", seq, data));
    }
  }

  private void fork(List<SessionEvent> parent) {
    long seed = parent.size();
    String id = forkId(seed);
    List<SessionEvent> child = new ArrayList<>(parent);
    child.add(SessionEvent.of(seed, "session/end-seed", seed, Json.mapper().createObjectNode()));
    store.persist(HEADER.forkChild(id, seed, seed), child).toCompletableFuture().join();
    // each fork is written once: let go of its files so a long run does not pile up descriptors
    store.release(id);
    print("fork " + seed);
  }

  /**
   * Runs the writer.
   *
   * @param args store root and random seed
   * @throws InterruptedException when interrupted while waiting for the writers
   */
  public static void main(String[] args) throws InterruptedException {
    Path root = Path.of(args[0]);
    try (FileSessionStore store = FileSessionStore.open(root)) {
      List<SessionEvent> log = new ArrayList<>(store.load(SESSION).map(StoredSession::events).orElse(List.of()));
      CrashWriter writer =
          new CrashWriter(store, root.resolve(SESSION).resolve("events.log"), new Random(Long.parseLong(args[1])), log);
      print("ready " + log.size());
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        Thread thread = new Thread(() -> {
          try {
            writer.write();
          } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
          }
        }, "writer-" + i);
        thread.start();
        threads.add(thread);
      }
      for (Thread thread : threads) {
        thread.join();
      }
    }
  }
}
