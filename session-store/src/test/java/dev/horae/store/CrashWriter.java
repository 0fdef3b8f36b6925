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
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Child-JVM main of {@link CrashTest} (args: store root, seed): resumes session {@code crash},
 * prints {@code ready <length>}, then appends atomic batches of 1..5 events and persists each,
 * printing {@code ack <length> <file bytes>} only after the persist completed, until it is killed.
 *
 * <p>Every event says which batch it belongs to ({@code batch} = the batch's first seq, {@code
 * of} = its size) so the parent can tell a half-written batch from a whole one. Now and then it
 * forks the log instead (session {@code fork-<seed length>}, seed plus an end-seed marker) and
 * prints {@code fork <seed length>} once that first persist completed.
 */
public final class CrashWriter {

  static final String SESSION = "crash";
  static final SessionHeader HEADER = SessionHeader.root(SESSION, 0, Optional.empty());
  private static final int MAX_FLUSHES = 100_000;
  private static final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);

  private CrashWriter() {}

  /** The fork of the log as it stands, stored with its seed and an end-seed marker. */
  static String forkId(long seedLength) {
    return "fork-" + seedLength;
  }

  private static void fork(FileSessionStore store, List<SessionEvent> log) {
    long seed = log.size();
    String id = forkId(seed);
    List<SessionEvent> child = new ArrayList<>(log);
    child.add(SessionEvent.of(seed, "session/end-seed", seed, Json.mapper().createObjectNode()));
    store.persist(HEADER.forkChild(id, seed, seed), child).toCompletableFuture().join();
    // each fork is written once: let go of its files so a long run does not pile up descriptors
    store.release(id);
    out.print("fork " + seed + "\n");
    out.flush();
  }

  /**
   * Runs the writer.
   *
   * @param args store root and random seed
   * @throws IOException when the event file's size cannot be read
   */
  public static void main(String[] args) throws IOException {
    Random random = new Random(Long.parseLong(args[1]));
    Path root = Path.of(args[0]);
    Path events = root.resolve(SESSION).resolve("events.log");
    try (FileSessionStore store = FileSessionStore.open(root)) {
      List<SessionEvent> log = new ArrayList<>(store.load(SESSION).map(StoredSession::events).orElse(List.of()));
      out.print("ready " + log.size() + "\n");
      out.flush();
      for (int flush = 0; flush < MAX_FLUSHES; flush++) {
        if (random.nextInt(8) == 0) {
          fork(store, log);
          continue;
        }
        int size = 1 + random.nextInt(5);
        long first = log.size();
        for (int i = 0; i < size; i++) {
          long seq = log.size();
          ObjectNode data = Json.mapper().createObjectNode();
          data.put("n", seq);
          data.put("batch", first);
          data.put("of", size);
          data.put("pad", "x".repeat(random.nextInt(20_000)));
          // the store writes only the time it is given
          log.add(SessionEvent.of(seq, "crash/event", seq, data));
        }
        store.persist(HEADER, List.copyOf(log)).toCompletableFuture().join();
        // single-threaded, so the file's size now is the end of the acknowledged lines
        out.print("ack " + log.size() + " " + Files.size(events) + "\n");
        out.flush();
      }
    }
  }
}
