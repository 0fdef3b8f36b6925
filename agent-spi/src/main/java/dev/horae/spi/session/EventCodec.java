package dev.horae.spi.session;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.horae.spi.HoraeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The JSON form of a {@link SessionEvent}, shared by every store and by offline tools:
 * {@code {"seq","type","time","data","surfaceOp"?,"sourceEventSeqs"?}} where {@code surfaceOp} is
 * {@code {"op":"append"}} or {@code {"op":"replace","start":s,"end":e}}.
 */
public final class EventCodec {

  // a log holds a handful of types a million times: one string per type instead of one per event
  // (about 56 bytes each); bounded, so a log of ever new types cannot grow it without end
  private static final int CANONICAL_TYPES = 1024;
  private static final Map<String, String> TYPES = new ConcurrentHashMap<>();

  // the type the last event read had: a log's events mostly repeat it, and comparing its text
  // with the token's characters costs no string (a benign race: any value read is a canonical type)
  private static volatile String lastType = "";

  private EventCodec() {}

  // the token's text as its canonical string, built only when it is not the last type read
  private static String type(JsonParser p) throws IOException {
    String last = lastType;
    int length = p.getTextLength();
    if (length == last.length()) {
      char[] chars = p.getTextCharacters();
      int offset = p.getTextOffset();
      boolean same = true;
      for (int i = 0; i < length && same; i++) {
        same = chars[offset + i] == last.charAt(i);
      }
      if (same) {
        return last;
      }
    }
    return remember(p.getText());
  }

  // the same for a type written in ASCII bytes[from, to) (CanonicalEvent's short path)
  static String type(byte[] ascii, int from, int to) {
    String last = lastType;
    int length = to - from;
    if (length == last.length()) {
      boolean same = true;
      for (int i = 0; i < length && same; i++) {
        same = ascii[from + i] == last.charAt(i);
      }
      if (same) {
        return last;
      }
    }
    return remember(new String(ascii, from, length, StandardCharsets.US_ASCII));
  }

  private static String remember(String text) {
    String type = canonical(text);
    lastType = type;
    return type;
  }

  private static String canonical(String type) {
    String known = TYPES.get(type);
    if (known != null) {
      return known;
    }
    if (TYPES.size() < CANONICAL_TYPES) {
      known = TYPES.putIfAbsent(type, type);
    }
    return known == null ? type : known;
  }

  /**
   * Encodes an event.
   *
   * @param event the event
   * @return a new JSON object
   */
  public static ObjectNode toJson(SessionEvent event) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("seq", event.seq());
    o.put("type", event.type());
    o.put("time", event.time());
    o.set("data", event.data());
    event.surfaceOp().ifPresent(op -> {
      ObjectNode s = o.putObject("surfaceOp");
      if (op instanceof SurfaceOp.Replace r) {
        s.put("op", "replace");
        s.put("start", r.start());
        s.put("end", r.end());
      } else {
        s.put("op", "append");
      }
    });
    if (!event.sourceEventSeqs().isEmpty()) {
      ArrayNode a = o.putArray("sourceEventSeqs");
      event.sourceEventSeqs().forEach(a::add);
    }
    return o;
  }

  /**
   * Decodes an event written by {@link #toJson}, with the decoder a store's load uses ({@link
   * #readEvent}): the tree is walked as tokens, so the rules and their messages have one home.
   *
   * @param json the event object
   * @return the event, holding the text of {@code data} (later changes to the tree do not reach it)
   * @throws IllegalArgumentException when the shape is wrong
   */
  public static SessionEvent fromJson(JsonNode json) {
    try (JsonParser p = json.traverse()) {
      p.nextToken();
      return readEvent(p, null, 0, json, null);
    } catch (IOException e) {
      throw new IllegalStateException("walking a tree in memory failed", e);
    }
  }

  // the rules of the two optional members, read as trees (they are small and rare)
  private static Optional<SurfaceOp> surfaceOp(@Nullable JsonNode s) {
    if (s == null || s.isNull()) {
      return Optional.empty();
    }
    String op = s.path("op").asText("");
    if (op.equals("append")) {
      return Optional.of(SurfaceOp.APPEND);
    } else if (op.equals("replace")) {
      return Optional.of(new SurfaceOp.Replace(s.path("start").asLong(), s.path("end").asLong()));
    }
    throw new IllegalArgumentException("event member \"surfaceOp\" has unknown op \"" + op + "\"");
  }

  private static List<Long> sources(@Nullable JsonNode src) {
    if (src == null || !src.isArray() || src.isEmpty()) {
      return List.of();
    }
    List<Long> sources = new ArrayList<>(src.size());
    src.forEach(n -> sources.add(n.asLong()));
    return sources;
  }

  /**
   * Reads the events of a stored line's JSON, a non-empty array of events in the {@link #toJson}
   * form, straight from its UTF-8 bytes with a streaming parser: the envelope's members are read,
   * each payload's bytes are kept as they are and checked for well-formed JSON by skipping through
   * them, and no tree is built for a payload. What the bytes must satisfy is what the shared
   * parser reads ({@link Json#parse(byte[], int, int)}): bytes that are not UTF-8, nesting deeper
   * than its limit or any other syntax error make the whole text unreadable, even after an event
   * whose members are wrong, as a tree parse of the whole text would.
   *
   * @param utf8 the buffer
   * @param offset where the JSON starts
   * @param length how many bytes it has
   * @return the events, in order
   * @throws Unreadable when the bytes are not one JSON value or not a non-empty array of events,
   *     or an event's members are wrong
   */
  public static List<SessionEvent> readArray(byte[] utf8, int offset, int length) {
    return readStoredArray(utf8, offset, length, null);
  }

  /**
   * {@link #readArray(byte[], int, int)}, with the events' payloads copied into {@code blocks}
   * instead of an array each: what a store's load of a whole log does when it keeps several events
   * in one stored text. The events are equal to those of the plain read.
   *
   * @param utf8 the buffer
   * @param offset where the JSON starts
   * @param length how many bytes it has
   * @param blocks where the payloads are copied
   * @return the events, in order
   * @throws Unreadable when the bytes are not one JSON value or not a non-empty array of events,
   *     or an event's members are wrong
   */
  public static List<SessionEvent> readArray(byte[] utf8, int offset, int length, PayloadBlocks blocks) {
    return readStoredArray(utf8, offset, length, Objects.requireNonNull(blocks, "blocks"));
  }

  private static List<SessionEvent> readStoredArray(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    Objects.checkFromIndexSize(offset, length, utf8.length);
    List<SessionEvent> canonical = CanonicalEvent.readArray(utf8, offset, length, blocks);
    return canonical != null ? canonical : parseArray(utf8, offset, length, blocks);
  }

  // the parser's reading of a stored line: every text, and every answer and error
  static List<SessionEvent> parseArray(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    try (JsonParser p = Json.mapper().getFactory().createParser(utf8, offset, length)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_ARRAY) {
        skipValue(p);
        requireEnd(p);
        throw new Unreadable(false, null, "not a non-empty JSON array of events");
      }
      List<SessionEvent> events = new ArrayList<>();
      Unreadable wrong = null;
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t == null) {
          throw new Unreadable(true, null, "unexpected end of input");
        }
        if (wrong != null) {
          skipValue(p);
          continue;
        }
        try {
          events.add(readEvent(p, utf8, offset, null, blocks));
        } catch (IllegalArgumentException e) {
          // the first wrong event is the answer only if the rest of the text is JSON at all
          wrong = new Unreadable(false, List.copyOf(events), String.valueOf(e.getMessage()));
          skipValue(p);
        }
      }
      requireEnd(p);
      if (wrong != null) {
        throw wrong;
      }
      if (events.isEmpty()) {
        throw new Unreadable(false, null, "not a non-empty JSON array of events");
      }
      return events;
    } catch (JsonProcessingException e) {
      throw new Unreadable(true, null, e.getOriginalMessage());
    } catch (IOException e) {
      throw new Unreadable(true, null, String.valueOf(e.getMessage()));
    }
  }

  /**
   * Reads one event in the {@link #toJson} form from its UTF-8 bytes, as {@link #readArray} reads
   * each event of a line.
   *
   * @param utf8 the buffer
   * @param offset where the JSON starts
   * @param length how many bytes it has
   * @return the event
   * @throws Unreadable when the bytes are not one JSON value or its members are wrong
   */
  public static SessionEvent readEvent(byte[] utf8, int offset, int length) {
    return readStored(utf8, offset, length, null);
  }

  /**
   * {@link #readEvent(byte[], int, int)}, with the event's payload copied into {@code blocks}
   * instead of an array of its own: what a store's load of a whole log does, one {@link
   * PayloadBlocks} for all the events of that load. The event is equal to that of the plain read.
   *
   * @param utf8 the buffer
   * @param offset where the JSON starts
   * @param length how many bytes it has
   * @param blocks where the payload is copied
   * @return the event
   * @throws Unreadable when the bytes are not one JSON value or its members are wrong
   */
  public static SessionEvent readEvent(byte[] utf8, int offset, int length, PayloadBlocks blocks) {
    return readStored(utf8, offset, length, Objects.requireNonNull(blocks, "blocks"));
  }

  private static SessionEvent readStored(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    SessionEvent canonical = CanonicalEvent.read(utf8, offset, length, blocks);
    return canonical != null ? canonical : parse(utf8, offset, length, blocks);
  }

  // the parser's reading of one stored event: every text, and every answer and error
  static SessionEvent parse(byte[] utf8, int offset, int length, @Nullable PayloadBlocks blocks) {
    Objects.checkFromIndexSize(offset, length, utf8.length);
    try (JsonParser p = Json.mapper().getFactory().createParser(utf8, offset, length)) {
      if (p.nextToken() == null) {
        throw new Unreadable(true, null, "no JSON value");
      }
      SessionEvent event;
      try {
        event = readEvent(p, utf8, offset, null, blocks);
      } catch (IllegalArgumentException e) {
        skipValue(p);
        requireEnd(p);
        throw new Unreadable(false, List.of(), String.valueOf(e.getMessage()));
      }
      requireEnd(p);
      return event;
    } catch (JsonProcessingException e) {
      throw new Unreadable(true, null, e.getOriginalMessage());
    } catch (IOException e) {
      throw new Unreadable(true, null, String.valueOf(e.getMessage()));
    }
  }

  /**
   * A reader of the arrays of consecutive stored texts in one buffer with one parser: a store that
   * reads a million lines would otherwise create a parser per line ({@link #readArray}), whose
   * set-up costs about as much as reading a short line. A text in the layout the stores write is
   * read without a parser; the others are root values of one parser over the buffer from where
   * the text before them ended; what lies between texts (a line's end, the next line's frame) must
   * be JSON white space when the reader reaches it, so a store overwrites a frame it has checked
   * with spaces before reading its text.
   *
   * @param buffer the bytes, read in place (not copied) and not changed
   * @param from where the reader starts: white space or the first text
   * @param to the end of the last whole text in the buffer
   * @return a reader for texts in {@code [from, to)}, in order
   */
  public static Texts texts(byte[] buffer, int from, int to) {
    return new Texts(buffer, from, to, null);
  }

  /**
   * {@link #texts(byte[], int, int)}, with the payloads of the events read kept in {@code blocks}
   * instead of an array each: what a store's load of a whole log does, one {@link PayloadBlocks}
   * for all the readers of that load. The events are equal to those of the plain reader.
   *
   * @param buffer the bytes, read in place (not copied) and not changed
   * @param from where the reader starts: white space or the first text
   * @param to the end of the last whole text in the buffer
   * @param blocks where the payloads are copied
   * @return a reader for texts in {@code [from, to)}, in order
   */
  public static Texts texts(byte[] buffer, int from, int to, PayloadBlocks blocks) {
    return new Texts(buffer, from, to, Objects.requireNonNull(blocks, "blocks"));
  }

  /**
   * Consecutive texts of one buffer read with one parser ({@link #texts}): a text in the layout
   * {@link #writeArray} gives is read without one (CanonicalEvent), and a parser is created, at
   * the end of the last text read, only for a text that needs it and kept for the texts after it
   * until the next text read without it. {@link #read} gives a text's events only when they are
   * exactly what {@link #readArray} of that text alone gives, and otherwise nothing; it never
   * reports why. Not thread-safe.
   */
  public static final class Texts implements AutoCloseable {
    private final byte[] buffer;
    private final int to;
    private final @Nullable PayloadBlocks blocks;
    private @Nullable JsonParser parser;
    /** Where the parser started in the buffer: its offsets count from here. */
    private int parserFrom;
    /** Where the reader stands in the buffer: after the last text it read. */
    private int at;

    private Texts(byte[] buffer, int from, int to, @Nullable PayloadBlocks blocks) {
      Objects.checkFromToIndex(from, to, buffer.length);
      this.buffer = buffer;
      this.to = to;
      this.blocks = blocks;
      this.at = from;
    }

    /**
     * The events of the text {@code buffer[offset, offset + length)}, when this reader can vouch
     * that {@link #readArray} of the text alone gives the same events: the bytes from where the
     * last text ended to {@code offset} are white space, the text is a non-empty array of events
     * whose members are right, and after its array the text holds only white space. Anything else
     * (a syntax error, a wrong member, a value that runs past the text, bytes that are not white
     * space before it) gives nothing and spends the reader: the caller reads that text with
     * {@link #readArray}, which gives the answer and the error, and a new reader for the texts
     * after it.
     *
     * @param offset where the text starts, at or after the end of the last text read
     * @param length how many bytes it has
     * @return the events, or empty when the caller must read the text itself
     */
    public Optional<List<SessionEvent>> read(int offset, int length) {
      if (at < 0 || offset < at || length < 0 || offset + length > to || !blank(at, offset)) {
        return spent();
      }
      List<SessionEvent> canonical = CanonicalEvent.readArray(buffer, offset, length, blocks);
      if (canonical != null) {
        at = offset + length;
        // a parser stands before this text now: the next text that needs one gets a new one
        closeParser();
        return Optional.of(canonical);
      }
      try {
        JsonParser p = parser;
        if (p == null) {
          // from where the last text ended: only white space lies between there and offset
          parserFrom = at;
          p = Json.mapper().getFactory().createParser(buffer, at, to - at);
          parser = p;
          if (!(p instanceof com.fasterxml.jackson.core.json.UTF8StreamJsonParser)) {
            // the first bytes looked like another encoding: byte offsets mean nothing then
            return spent();
          }
        }
        int end = offset + length;
        // white space up to offset was checked, so this token is the text's first one, if any
        if (p.nextToken() != JsonToken.START_ARRAY || parserFrom + p.currentTokenLocation().getByteOffset() >= end) {
          return spent();
        }
        List<SessionEvent> events = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
          if (t == null) {
            return spent();
          }
          events.add(readEvent(p, buffer, parserFrom, null, blocks));
        }
        long after = parserFrom + p.currentLocation().getByteOffset();
        if (events.isEmpty() || after > end || !blank((int) after, end)) {
          return spent();
        }
        at = (int) after;
        return Optional.of(events);
      } catch (IOException | IllegalArgumentException e) {
        // readArray of the text gives the answer: the error's text, or the events before it
        return spent();
      }
    }

    // the bytes a parser skips between root values: space, tab, line feed, carriage return
    private boolean blank(int start, int end) {
      return JsonScan.space(buffer, start, end) == end;
    }

    private Optional<List<SessionEvent>> spent() {
      at = -1;
      close();
      return Optional.empty();
    }

    /** Releases the parser's buffers; the reader reads nothing more. */
    @Override
    public void close() {
      at = -1;
      closeParser();
    }

    private void closeParser() {
      JsonParser p = parser;
      parser = null;
      if (p != null) {
        try {
          p.close();
        } catch (IOException e) {
          // a parser over bytes in memory has no source to close: only its buffers are returned
          throw new java.io.UncheckedIOException(e);
        }
      }
    }
  }

  /**
   * The one event decoder. The parser stands on the event's first token and is left on its last.
   * It reads stored bytes ({@code utf8}, the payload kept as its slice of them) or walks a tree
   * ({@code tree}, the event object itself: its payload and optional members are taken from it as
   * they are, so a caller's tree is checked and written out as the constructor does). A stored
   * payload is copied into {@code blocks} when given, else into an array of its own.
   */
  private static SessionEvent readEvent(
      JsonParser p, byte @Nullable [] utf8, int offset, @Nullable JsonNode tree, @Nullable PayloadBlocks blocks)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("event must be a JSON object");
    }
    boolean seqValid = false;
    long seq = 0;
    String type = null;
    boolean timeValid = false;
    long time = 0;
    int dataStart = -1;
    int dataEnd = -1;
    JsonNode dataTree = null;
    JsonNode surface = null;
    JsonNode sources = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        // a value of the wrong kind is stepped over whole, so the members after it are read
        case "seq" -> {
          seqValid = isLong(p, value);
          seq = seqValid ? p.getLongValue() : skip(p, utf8 != null);
        }
        case "time" -> {
          timeValid = isLong(p, value);
          time = timeValid ? p.getLongValue() : skip(p, utf8 != null);
        }
        case "type" -> {
          type = value == JsonToken.VALUE_STRING ? type(p) : null;
          if (type == null) {
            skip(p, utf8 != null);
          }
        }
        case "data" -> {
          if (utf8 != null) {
            int start = offset + (int) p.currentTokenLocation().getByteOffset();
            skipValue(p);
            int end = offset + (int) p.currentLocation().getByteOffset();
            checkLength(p, utf8, start, end);
            // copied once the event is whole: a repeated member or a wrong one wastes no block
            dataStart = start;
            dataEnd = end;
          } else {
            p.skipChildren();
            dataTree = member(tree, name);
          }
        }
        case "surfaceOp" -> surface = utf8 != null ? p.readValueAsTree() : skipTo(p, member(tree, name));
        case "sourceEventSeqs" -> sources = utf8 != null ? p.readValueAsTree() : skipTo(p, member(tree, name));
        default -> skip(p, utf8 != null);
      }
    }
    if (!seqValid) {
      throw new IllegalArgumentException("event member \"seq\" must be an integer");
    }
    if (type == null) {
      throw new IllegalArgumentException("event member \"type\" must be a string");
    }
    if (!timeValid) {
      throw new IllegalArgumentException("event member \"time\" must be an integer");
    }
    if (utf8 != null && dataStart >= 0) {
      return stored(seq, type, time, utf8, dataStart, dataEnd, blocks, surfaceOp(surface), sources(sources));
    }
    if (dataTree == null) {
      throw new IllegalArgumentException("event member \"data\" is missing");
    }
    return new SessionEvent(seq, type, time, dataTree, surfaceOp(surface), sources(sources));
  }

  // stored bytes are checked as a tree parse would check them; a walked tree was built already
  private static long skip(JsonParser p, boolean stored) throws IOException {
    if (stored) {
      skipValue(p);
    } else {
      p.skipChildren();
    }
    return 0;
  }

  // a member of the walked tree, which the walk has just reached
  private static JsonNode member(@Nullable JsonNode tree, String name) {
    JsonNode node = tree == null ? null : tree.get(name);
    if (node == null) {
      throw new IllegalStateException("a walked tree has no member \"" + name + "\"");
    }
    return node;
  }

  private static JsonNode skipTo(JsonParser p, JsonNode node) throws IOException {
    p.skipChildren();
    return node;
  }

  // an integer token the long holds: a tree would read it as an int or long node (text reads as
  // a big integer only beyond a long; a caller's tree may hold a small one)
  private static boolean isLong(JsonParser p, JsonToken value) throws IOException {
    return value == JsonToken.VALUE_NUMBER_INT
        && (p.getNumberType() != JsonParser.NumberType.BIG_INTEGER || p.getBigIntegerValue().bitLength() < 64);
  }

  // the payload's bytes exactly as stored are utf8[start, end), stepped over by skipValue
  private static void checkLength(JsonParser p, byte[] utf8, int start, int end) throws IOException {
    if (end - start > Json.mapper().getFactory().streamReadConstraints().getMaxStringLength()) {
      // only bytes this many can hold a string too long for the parser, which skipping does not
      // measure: parse them once, so an event that loads can always give its payload
      try {
        Json.parse(utf8, start, end - start);
      } catch (IllegalArgumentException e) {
        throw new JsonParseException(p, String.valueOf(e.getMessage()), e);
      }
    }
  }

  // an event read from stored bytes, its payload utf8[start, end) copied into blocks when given,
  // else into an array of its own: the one place both readers build it
  static SessionEvent stored(
      long seq,
      String type,
      long time,
      byte[] utf8,
      int start,
      int end,
      @Nullable PayloadBlocks blocks,
      Optional<SurfaceOp> surfaceOp,
      List<Long> sources) {
    if (blocks == null) {
      return new SessionEvent(seq, type, time, Arrays.copyOfRange(utf8, start, end), surfaceOp, sources);
    }
    byte[] block = blocks.copy(utf8, start, end - start);
    return new SessionEvent(seq, type, time, block, blocks.offset(), end - start, surfaceOp, sources);
  }

  /**
   * Steps over the value the parser stands on, leaving it on the value's last token, and checks
   * that every token is one the shared parser would turn into a tree: a string is checked for
   * UTF-8 while skipped, a decimal number is converted as the tree's decimal node converts it.
   * Only a string's length is not measured while skipping ({@link #checkLength} makes up for it).
   */
  private static void skipValue(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      // a string is read lazily: finishing it checks its bytes and puts the location past it
      p.finishToken();
      return;
    }
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      decimal(p);
      return;
    }
    if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
      return;
    }
    int depth = 1;
    while (depth > 0) {
      JsonToken next = p.nextToken();
      if (next == null) {
        throw new JsonParseException(p, "unexpected end of input");
      }
      switch (next) {
        case START_OBJECT, START_ARRAY -> depth++;
        case END_OBJECT, END_ARRAY -> depth--;
        case VALUE_NUMBER_FLOAT -> decimal(p);
        default -> {
          // names and other scalars were read whole by nextToken; a string inside a container
          // is stepped over by the next nextToken, which checks its UTF-8 without decoding it
        }
      }
    }
  }

  // the tree holds floats as decimals (Json's mapper); a text BigDecimal refuses is a syntax error
  private static void decimal(JsonParser p) throws IOException {
    try {
      p.getDecimalValue();
    } catch (NumberFormatException e) {
      throw new JsonParseException(p, "malformed number: " + e.getMessage(), e);
    }
  }

  private static void requireEnd(JsonParser p) throws IOException {
    if (p.nextToken() != null) {
      throw new JsonParseException(p, "content after the JSON value");
    }
  }

  /**
   * Writes events as the JSON text of a stored line, an array of their {@link #toJson} forms,
   * copying each payload's bytes as they are (no tree is built). The text equals {@code
   * Json.write} of the array of their trees when each payload's text is the shared writer's.
   *
   * @param events the events
   * @return the UTF-8 bytes of the array
   */
  public static byte[] writeArray(List<SessionEvent> events) {
    Utf8 out = new Utf8();
    out.put((byte) '[');
    for (int i = 0; i < events.size(); i++) {
      if (i > 0) {
        out.put((byte) ',');
      }
      write(events.get(i), out);
    }
    out.put((byte) ']');
    return out.bytes();
  }

  /**
   * Writes one event as its {@link #toJson} form's JSON text, copying the payload's bytes.
   *
   * @param event the event
   * @return the text
   */
  public static String write(SessionEvent event) {
    Utf8 out = new Utf8();
    write(event, out);
    return new String(out.buffer, 0, out.size, StandardCharsets.UTF_8);
  }

  /**
   * {@link #writeArray}, read back as a store's load reads it ({@link #readArray}) before it is
   * returned: a store that wrote text its own load refuses would acknowledge events it then drops
   * as a torn tail or reports as corruption.
   *
   * @param events the events of one stored line
   * @return the UTF-8 bytes of the array
   * @throws IllegalArgumentException {@code JSON value cannot be stored and read back: …} when
   *     the load would refuse the text (nesting, a string, name or number over the parser's limits)
   */
  public static byte[] writeStorable(List<SessionEvent> events) {
    byte[] json = writeArray(events);
    try {
      readArray(json, 0, json.length);
    } catch (Unreadable e) {
      throw new IllegalArgumentException("JSON value cannot be stored and read back: " + e.getMessage(), e);
    }
    return json;
  }

  /**
   * {@link #write(SessionEvent)}, read back before it is returned as a store's load reads it both
   * alone ({@link #readEvent}) and as one event of a stored line ({@link #readArray}, one level
   * deeper): a store may keep an event as a row of its own first and inside an array of events
   * later (the JDBC store's segments), so a text the load would refuse either way is refused now.
   *
   * @param event the event of one stored row
   * @return the text
   * @throws IllegalArgumentException {@code JSON value cannot be stored and read back: …} when
   *     the load would refuse the text alone or inside a line
   */
  public static String writeStorable(SessionEvent event) {
    // the line's array reads back only if the event alone does (it is one level shallower)
    byte[] line = writeStorable(List.of(event));
    return new String(line, 1, line.length - 2, StandardCharsets.UTF_8);
  }

  private static void write(SessionEvent e, Utf8 out) {
    out.ascii("{\"seq\":").ascii(Long.toString(e.seq()))
        .ascii(",\"type\":").put(Json.write(TextNode.valueOf(e.type())).getBytes(StandardCharsets.UTF_8))
        .ascii(",\"time\":").ascii(Long.toString(e.time()))
        .ascii(",\"data\":").put(e.dataArray(), e.dataOffset(), e.dataLength());
    e.surfaceOp().ifPresent(op -> {
      if (op instanceof SurfaceOp.Replace r) {
        out.ascii(",\"surfaceOp\":{\"op\":\"replace\",\"start\":").ascii(Long.toString(r.start()))
            .ascii(",\"end\":").ascii(Long.toString(r.end())).ascii("}");
      } else {
        out.ascii(",\"surfaceOp\":{\"op\":\"append\"}");
      }
    });
    List<Long> sources = e.sourceEventSeqs();
    if (!sources.isEmpty()) {
      out.ascii(",\"sourceEventSeqs\":[");
      for (int i = 0; i < sources.size(); i++) {
        out.ascii(i == 0 ? "" : ",").ascii(Long.toString(sources.get(i)));
      }
      out.ascii("]");
    }
    out.ascii("}");
  }

  /** A growing byte buffer; the JSON text of a line is built in one. */
  private static final class Utf8 {
    private byte[] buffer = new byte[256];
    private int size;

    Utf8 put(byte b) {
      room(1);
      buffer[size++] = b;
      return this;
    }

    Utf8 put(byte[] bytes) {
      return put(bytes, 0, bytes.length);
    }

    Utf8 put(byte[] bytes, int offset, int length) {
      room(length);
      System.arraycopy(bytes, offset, buffer, size, length);
      size += length;
      return this;
    }

    // only for text of ASCII characters: the writer's own punctuation and numbers
    Utf8 ascii(String text) {
      room(text.length());
      for (int i = 0; i < text.length(); i++) {
        buffer[size++] = (byte) text.charAt(i);
      }
      return this;
    }

    private void room(int more) {
      if (size + more > buffer.length) {
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
      }
    }

    byte[] bytes() {
      return Arrays.copyOf(buffer, size);
    }
  }

  /**
   * Bytes that {@link #readArray} or {@link #readEvent} could not read as events: not JSON the
   * shared parser reads, or JSON of the wrong shape.
   */
  public static final class Unreadable extends HoraeException {
    private static final long serialVersionUID = 1L;

    /** Whether the bytes are not JSON at all, rather than JSON of the wrong shape. */
    private final boolean syntax;

    /** The events before the wrong one, or null when the text as a whole is wrong. */
    private final transient @Nullable List<SessionEvent> before;

    Unreadable(boolean syntax, @Nullable List<SessionEvent> before, String message) {
      // a value a reader reports (a torn tail, a corrupt line), not a fault: no stack trace
      super(message, null, false, false);
      this.syntax = syntax;
      this.before = before;
    }

    /**
     * What is wrong with the bytes, never null.
     *
     * @return the message
     */
    @Override
    public String getMessage() {
      return String.valueOf(super.getMessage());
    }

    /**
     * Whether the bytes are not one well-formed JSON value the shared parser reads (not UTF-8, a
     * syntax error, a limit exceeded), rather than JSON of the wrong shape.
     *
     * @return true for a syntax error
     */
    public boolean syntax() {
      return syntax;
    }

    /**
     * The events of the text before the one whose members are wrong, so a reader can tell what it
     * would have found first (a seq gap among them).
     *
     * @return those events (its size is the wrong event's index), or empty when the text as a
     *     whole is wrong rather than one event
     */
    public Optional<List<SessionEvent>> before() {
      return Optional.ofNullable(before);
    }
  }
}
