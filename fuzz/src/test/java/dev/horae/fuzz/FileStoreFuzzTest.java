package dev.horae.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.horae.fuzz.FuzzRun.Verdict;
import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.StoredSession;
import dev.horae.store.FileSessionStore;
import dev.horae.store.SessionStoreException;
import dev.horae.store.SyncMode;
import dev.horae.store.internal.FolderNames;
import dev.horae.store.internal.frame.LineFrame;
import dev.horae.store.internal.frame.LineResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file session store's readers of persisted bytes: one framed line ({@link LineFrame}), a
 * whole session folder ({@code header.json} and {@code events.log}, through {@link
 * FileSessionStore#load}) and folder names ({@link FolderNames}). Most inputs get their
 * checksums recomputed after the mutation, as a buggy writer or a deliberate edit would leave
 * them, so the JSON behind the checksum is fuzzed too. A folder that loads is loaded again from
 * a fresh store (the torn-tail repair must be idempotent and lose nothing that loaded) and must
 * accept the next append.
 */
class FileStoreFuzzTest {

  @TempDir Path dir;

  private static final String ID = "s";

  static List<SessionEvent> events(int from, int count) {
    List<SessionEvent> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      ObjectNode data = Json.mapper().createObjectNode();
      data.put("n", i);
      data.put("text", "event " + i + " \u00fc\ud83d\udd70");
      data.put("ratio", new java.math.BigDecimal("30.0"));
      out.add(SessionEvent.of(i, i % 2 == 0 ? "test/event" : "user/message", 1_700_000_000_000L + i, data));
    }
    return out;
  }

  static List<byte[]> lines() {
    List<byte[]> out = new ArrayList<>();
    for (int n = 1; n <= 3; n++) {
      byte[] line = LineFrame.encode(events(0, n));
      out.add(java.util.Arrays.copyOf(line, line.length - 1));
    }
    Corpus.vectorEvents().stream().limit(40).forEach(e -> {
      ObjectNode event = e.deepCopy();
      event.put("seq", 0);
      byte[] line = frame(Json.write(Json.mapper().createArrayNode().add(event)).getBytes(StandardCharsets.UTF_8));
      out.add(line);
    });
    return out;
  }

  static List<byte[]> files() {
    List<byte[]> out = new ArrayList<>();
    out.add(file(events(0, 1), events(1, 2), events(3, 1)));
    out.add(file(events(0, 3)));
    ByteArrayOutputStream torn = new ByteArrayOutputStream();
    torn.writeBytes(file(events(0, 2)));
    byte[] tail = LineFrame.encode(events(2, 1));
    torn.write(tail, 0, tail.length / 2);
    out.add(torn.toByteArray());
    return out;
  }

  @SafeVarargs
  private static byte[] file(List<SessionEvent>... flushes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (List<SessionEvent> f : flushes) {
      out.writeBytes(LineFrame.encode(f));
    }
    return out.toByteArray();
  }

  /** {@code <crc32c of json> <json>}, without the newline. */
  static byte[] frame(byte[] json) {
    byte[] crc = LineFrame.crcHex(json, 0, json.length).getBytes(StandardCharsets.US_ASCII);
    byte[] line = new byte[crc.length + 1 + json.length];
    System.arraycopy(crc, 0, line, 0, crc.length);
    line[crc.length] = ' ';
    System.arraycopy(json, 0, line, crc.length + 1, json.length);
    return line;
  }

  /**
   * Recomputes the checksum of every line that still looks like {@code <8 chars> <json>}, for
   * four inputs in five (chosen by the input's length, so a run stays reproducible).
   */
  static byte[] recrc(byte[] input) {
    if (input.length % 5 == 0) {
      return input;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(input.length);
    int start = 0;
    for (int i = 0; i <= input.length; i++) {
      if (i == input.length || input[i] == '\n') {
        byte[] line = java.util.Arrays.copyOfRange(input, start, i);
        if (line.length >= 10 && line[8] == ' ') {
          line = frame(java.util.Arrays.copyOfRange(line, 9, line.length));
        }
        out.writeBytes(line);
        if (i < input.length) {
          out.write('\n');
        }
        start = i + 1;
      }
    }
    return out.toByteArray();
  }

  static Verdict line(byte[] mutated) {
    byte[] input = recrc(mutated);
    LineResult result = LineFrame.decode(input, input.length, 0);
    if (result instanceof LineResult.Good good) {
      assertThat(good.events()).isNotEmpty();
      // written as a line and read back, the events are the same text again (a number may
      // change its node type once, 1.0e1 reads back as the integer 10; a character never)
      byte[] again = LineFrame.encode(good.events());
      LineResult reread = LineFrame.decode(again, again.length - 1, 0);
      assertThat(reread).isInstanceOf(LineResult.Good.class);
      assertThat(text(((LineResult.Good) reread).events())).isEqualTo(text(good.events()));
      return Verdict.VALID;
    }
    if (result instanceof LineResult.BadFrame bad && bad.why().startsWith("unparsable JSON")) {
      return Verdict.UNPARSABLE;
    }
    return Verdict.DOMAIN_ERROR;
  }

  private static String text(List<SessionEvent> events) {
    com.fasterxml.jackson.databind.node.ArrayNode array = Json.mapper().createArrayNode();
    events.forEach(e -> array.add(dev.horae.spi.session.EventCodec.toJson(e)));
    return Json.write(array);
  }

  /** One session folder, rewritten for every input (a store is opened and closed per input). */
  Verdict folder(byte[] header, byte[] events) throws IOException {
    Path root = dir.resolve("store");
    Path folder = Files.createDirectories(root.resolve(FolderNames.encode(ID)));
    Files.write(folder.resolve("header.json"), header);
    Files.write(folder.resolve("events.log"), events);
    Optional<StoredSession> first;
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      first = store.load(ID);
    } catch (SessionStoreException e) {
      return Verdict.DOMAIN_ERROR;
    }
    assertThat(first).as("a folder with a header holds a session").isPresent();
    StoredSession session = first.get();
    try (FileSessionStore store = FileSessionStore.open(root, SyncMode.NEVER)) {
      assertThat(store.load(ID)).as("the repaired folder loads the same again").contains(session);
      List<SessionEvent> longer = new ArrayList<>(session.events());
      longer.add(SessionEvent.of(longer.size(), "test/next", 0, Json.mapper().createObjectNode()));
      store.persist(session.header(), longer).toCompletableFuture().join();
      assertThat(store.load(ID).orElseThrow().events()).isEqualTo(longer);
    }
    return Verdict.VALID;
  }

  static Verdict folderName(byte[] input) {
    String name = FuzzRun.text(input);
    Optional<String> id = FolderNames.decode(name);
    if (id.isPresent()) {
      assertThat(FolderNames.encode(id.get())).isEqualTo(name);
      return Verdict.VALID;
    }
    String encoded;
    try {
      encoded = FolderNames.encode(name);
    } catch (IllegalArgumentException e) {
      return Verdict.DOMAIN_ERROR;
    }
    // every id has a name that stays inside the store root and reads back as the id
    assertThat(encoded).doesNotContain("/", "\\", "\u0000").isNotIn(".", "..");
    assertThat(FolderNames.decode(encoded)).contains(name);
    return Verdict.DOMAIN_ERROR;
  }

  static final byte[] HEADER = "{\"version\":1,\"id\":\"s\",\"createdAt\":1700000000000,\"timeZone\":\"UTC\"}\n"
      .getBytes(StandardCharsets.UTF_8);

  static List<byte[]> headers() {
    return FuzzRun.corpus(List.of(
        new String(HEADER, StandardCharsets.UTF_8),
        "{\"version\":1,\"id\":\"s\",\"createdAt\":0,\"cwd\":\"/tmp\",\"parentSession\":\"p\",\"seedLength\":2,"
            + "\"origin\":\"subagent\",\"delegationDepth\":1,\"agentPreset\":\"x\",\"timeZone\":\"Europe/Berlin\"}"));
  }

  static List<byte[]> names() {
    return FuzzRun.corpus(List.of("s", "session-01_a.b", "%2E.", "a%2Fb", "%C3%BC", "x.y.z", "Abc"));
  }

  @Test
  void framedLines() {
    FuzzRun.assertClean(FuzzRun.run("LineFrame", 11, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, lines(),
        FileStoreFuzzTest::line));
  }

  @Test
  void eventFiles() {
    FuzzRun.assertClean(FuzzRun.run("FileSessionStore.events", 12, FuzzRun.CORPUS / 3, FuzzRun.CORPUS_BUDGET,
        files(), in -> folder(HEADER, recrc(in))));
  }

  @Test
  void headerFiles() {
    byte[] events = file(events(0, 2));
    FuzzRun.assertClean(FuzzRun.run("FileSessionStore.header", 13, FuzzRun.CORPUS / 3, FuzzRun.CORPUS_BUDGET,
        headers(), in -> folder(in, events)));
  }

  @Test
  void folderNames() {
    FuzzRun.assertClean(FuzzRun.run("FolderNames", 14, FuzzRun.CORPUS, FuzzRun.CORPUS_BUDGET, names(),
        FileStoreFuzzTest::folderName));
  }

  @Test
  @Tag("slow")
  void framedLinesLong() {
    FuzzRun.assertClean(FuzzRun.run("LineFrame", 111, FuzzRun.LONG, FuzzRun.LONG_BUDGET, lines(),
        FileStoreFuzzTest::line));
  }

  @Test
  @Tag("slow")
  void eventFilesLong() {
    FuzzRun.assertClean(FuzzRun.run("FileSessionStore.events", 112, FuzzRun.LONG, FuzzRun.LONG_BUDGET, files(),
        in -> folder(HEADER, recrc(in))));
  }
}
