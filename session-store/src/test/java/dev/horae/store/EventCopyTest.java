package dev.horae.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The binary COPY rows of a JDBC load (PostgreSQL's binary COPY format): the header, a row of a seq
 * and an event read in place from its message, the trailer, and a clear error for anything else.
 * Messages are built here byte by byte, so these rules are checked without a database.
 */
@Timeout(30)
class EventCopyTest {

  private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0};

  private final List<String> decoded = new ArrayList<>();
  private final EventRows rows = fresh();

  /** Rows of a load of their own, decoded on this thread. */
  private EventRows fresh() {
    return EventRows.direct(this::decode, this::segment, (expected, found) ->
        new SessionStoreException("gap: expected " + expected + ", found " + found));
  }

  private SessionEvent decode(long seq, byte[] bytes, int offset, int length) {
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (text.equals("not json")) {
      throw new SessionStoreException("corrupt row " + seq);
    }
    decoded.add(seq + "=" + text);
    return SessionEvent.of(seq, "t", seq, Json.parse(text));
  }

  private List<SessionEvent> segment(long first, byte[] bytes, int offset, int length) {
    throw new AssertionError("no segment in these COPYs");
  }

  /** Bytes written by {@code body} to a big-endian stream. */
  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] bytes(Body body) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(b)) {
      body.write(out);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return b.toByteArray();
  }

  private static void header(DataOutputStream out, int extension) throws IOException {
    out.write(SIGNATURE);
    out.writeInt(0);
    out.writeInt(extension);
    out.write(new byte[Math.max(extension, 0)]);
  }

  private static void row(DataOutputStream out, long seq, String event) throws IOException {
    byte[] text = event.getBytes(StandardCharsets.UTF_8);
    out.writeShort(2);
    out.writeInt(8);
    out.writeLong(seq);
    out.writeInt(text.length);
    out.write(text);
  }

  @Test
  void theFirstMessageHoldsTheHeaderAndARowEachLaterOneARowAndTheTrailerEnds() {
    byte[] first = bytes(out -> {
      header(out, 3);
      row(out, 0, "{\"a\":\"é\"}");
    });
    int at = EventCopy.header("s", first);
    assertThat(at).isEqualTo(SIGNATURE.length + 8 + 3);
    assertThat(EventCopy.row("s", first, at, rows::add)).isTrue();
    // a seq beyond 32 bits keeps its high half
    byte[] second = bytes(out -> row(out, (1L << 32) + 1, "{}"));
    assertThatThrownBy(() -> EventCopy.row("s", second, 0, rows::add))
        .hasMessage("gap: expected 1, found 4294967297");
    assertThat(EventCopy.row("s", bytes(out -> row(out, 1, "[1]")), 0, rows::add)).isTrue();
    assertThat(EventCopy.row("s", bytes(out -> out.writeShort(-1)), 0, rows::add)).isFalse();
    assertThat(decoded).containsExactly("0={\"a\":\"é\"}", "1=[1]");
    assertThat(rows.finish()).hasSize(2);
  }

  @Test
  void anEmptyLogIsAHeaderAndTheTrailer() {
    byte[] only = bytes(out -> {
      header(out, 0);
      out.writeShort(-1);
    });
    assertThat(EventCopy.row("s", only, EventCopy.header("s", only), rows::add)).isFalse();
    assertThat(decoded).isEmpty();
  }

  /** A COPY's messages from a list; counts the reads; fails a read past {@code failAt} if set. */
  private static final class Listed implements EventCopy.Messages {
    private final List<byte[]> messages;
    private final int failAt;
    int reads;
    private boolean ended;

    Listed(List<byte[]> messages, int failAt) {
      this.messages = messages;
      this.failAt = failAt;
    }

    @Override
    public byte @Nullable [] next() throws java.sql.SQLException {
      if (reads == failAt) {
        throw new java.sql.SQLException("connection lost");
      }
      if (ended) {
        throw new AssertionError("read past the end of the COPY");
      }
      byte[] m = reads < messages.size() ? messages.get(reads) : null;
      reads++;
      ended = m == null;
      return m;
    }

    @Override
    public boolean active() {
      return !ended;
    }
  }

  private static List<byte[]> copyOf(int n, int bad) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long seq = i;
      String text = i == bad ? "not json" : "{\"n\":" + i + "}";
      out.add(bytes(o -> {
        if (seq == 0) {
          header(o, 0);
        }
        row(o, seq, text);
      }));
    }
    out.add(bytes(o -> o.writeShort(-1)));
    return out;
  }

  @Test
  void aWholeCopyIsReadToItsEndAndAHeaderAloneInItsMessageIsReadPast() throws Exception {
    Listed copy = new Listed(copyOf(5, -1), -1);
    EventCopy.rows("s", copy, rows::add);
    assertThat(rows.finish()).hasSize(5);
    // five rows, the trailer, and the end
    assertThat(copy.reads).isEqualTo(7);
    List<byte[]> apart = new ArrayList<>();
    apart.add(bytes(o -> header(o, 0)));
    apart.add(bytes(o -> row(o, 5, "{}")));
    apart.add(bytes(o -> o.writeShort(-1)));
    EventCopy.rows("s", new Listed(apart, -1), rows::add);
    assertThat(decoded).hasSize(6).endsWith("5={}");
  }

  @Test
  void aFailedRowReadsTheRestOfTheCopyBeforeItsErrorIsThrown() {
    Listed copy = new Listed(copyOf(50, 7), -1);
    assertThatThrownBy(() -> EventCopy.rows("s", copy, rows::add)).hasMessage("corrupt row 7");
    assertThat(copy.reads).isEqualTo(52);
    assertThat(copy.active()).isFalse();
    // a database failure while draining is kept beside the row's error
    Listed broken = new Listed(copyOf(50, 7), 20);
    assertThatThrownBy(() -> EventCopy.rows("s", broken, fresh()::add))
        .hasMessage("corrupt row 7")
        .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("connection lost"));
  }

  @Test
  void aCopyThatEndsTooSoonOrRunsOnIsRefused() {
    String tail = ", not PostgreSQL's binary format of a seq and an event a row";
    assertThatThrownBy(() -> EventCopy.rows("s", new Listed(List.of(), -1), rows::add))
        .hasMessage("session s: the COPY of its events sent no header" + tail);
    List<byte[]> noTrailer = copyOf(3, -1);
    noTrailer.remove(noTrailer.size() - 1);
    assertThatThrownBy(() -> EventCopy.rows("s", new Listed(noTrailer, -1), fresh()::add))
        .hasMessage("session s: the COPY of its events sent no trailer" + tail);
    List<byte[]> more = copyOf(1, -1);
    more.add(bytes(o -> row(o, 1, "{}")));
    assertThatThrownBy(() -> EventCopy.rows("s", new Listed(more, -1), fresh()::add))
        .hasMessage("session s: the COPY of its events sent data after the trailer" + tail);
  }

  @Test
  void aRowAfterTheHeaderIsMeasuredFromWhereTheHeaderEnds() {
    String tail = ", not PostgreSQL's binary format of a seq and an event a row";
    byte[] oneByte = bytes(out -> {
      header(out, 0);
      out.writeByte(0);
    });
    assertThatThrownBy(() -> EventCopy.row("s", oneByte, EventCopy.header("s", oneByte), rows::add))
        .hasMessage("session s: the COPY of its events sent a message without a field count" + tail);
    byte[] cut = bytes(out -> {
      header(out, 0);
      out.writeShort(2);
      out.writeInt(8);
      out.writeLong(0);
      out.writeShort(0);
    });
    assertThatThrownBy(() -> EventCopy.row("s", cut, EventCopy.header("s", cut), rows::add))
        .hasMessage("session s: the COPY of its events sent a row that is not a seq and an event" + tail);
    byte[] row = bytes(out -> {
      header(out, 0);
      row(out, 0, "{}");
    });
    byte[] longer = java.util.Arrays.copyOf(row, row.length + 1);
    assertThatThrownBy(() -> EventCopy.row("s", longer, EventCopy.header("s", longer), rows::add))
        .hasMessage("session s: the COPY of its events sent an event of 2 bytes in a row message of 21" + tail);
    // an empty event text is the decoder's to judge, not the format's
    byte[] empty = bytes(out -> {
      header(out, 0);
      row(out, 0, "");
    });
    assertThat(EventCopy.row("s", empty, EventCopy.header("s", empty), rows::add)).isTrue();
    assertThat(decoded).containsExactly("0=");
  }

  @Test
  void anythingButTheBinaryFormatOfASeqAndAnEventIsRefusedByName() {
    String tail = ", not PostgreSQL's binary format of a seq and an event a row";
    byte[] text = "0\t{}\n".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> EventCopy.header("s", text))
        .isInstanceOf(SessionStoreException.class)
        .hasMessage("session s: the COPY of its events sent a short header" + tail);
    byte[] unsigned = bytes(out -> {
      header(out, 0);
      row(out, 0, "{}");
    });
    unsigned[6] = ' ';
    assertThatThrownBy(() -> EventCopy.header("s", unsigned))
        .hasMessage("session s: the COPY of its events sent no binary signature" + tail);
    assertThatThrownBy(() -> EventCopy.header("s", bytes(out -> header(out, -1))))
        .hasMessage("session s: the COPY of its events sent a header extension of -1 bytes" + tail);
    byte[] longExtension = bytes(out -> header(out, 0));
    longExtension[longExtension.length - 1] = 1;
    assertThatThrownBy(() -> EventCopy.header("s", longExtension))
        .hasMessage("session s: the COPY of its events sent a header extension of 1 bytes" + tail);

    assertThatThrownBy(() -> EventCopy.row("s", new byte[] {0}, 0, rows::add))
        .hasMessage("session s: the COPY of its events sent a message without a field count" + tail);
    assertThatThrownBy(() -> EventCopy.row("s", bytes(out -> {
      out.writeShort(-1);
      out.writeByte(0);
    }), 0, rows::add)).hasMessage("session s: the COPY of its events sent bytes after the trailer" + tail);
    byte[] threeFields = bytes(out -> row(out, 0, "{}"));
    threeFields[1] = 3;
    byte[] intSeq = bytes(out -> {
      out.writeShort(2);
      out.writeInt(4);
      out.writeInt(0);
      out.writeInt(2);
      out.writeBytes("{}");
    });
    byte[] cut = bytes(out -> {
      out.writeShort(2);
      out.writeInt(8);
      out.writeLong(0);
    });
    for (byte[] notARow : List.of(threeFields, intSeq, cut)) {
      assertThatThrownBy(() -> EventCopy.row("s", notARow, 0, rows::add))
          .hasMessage("session s: the COPY of its events sent a row that is not a seq and an event" + tail);
    }
    byte[] shortEvent = bytes(out -> row(out, 0, "{}"));
    byte[] longer = java.util.Arrays.copyOf(shortEvent, shortEvent.length + 1);
    assertThatThrownBy(() -> EventCopy.row("s", longer, 0, rows::add))
        .hasMessage("session s: the COPY of its events sent an event of 2 bytes in a row message of 21" + tail);
    byte[] nullEvent = bytes(out -> {
      out.writeShort(2);
      out.writeInt(8);
      out.writeLong(0);
      out.writeInt(-1);
    });
    assertThatThrownBy(() -> EventCopy.row("s", nullEvent, 0, rows::add))
        .hasMessage("session s: the COPY of its events sent an event of -1 bytes in a row message of 18" + tail);
    assertThat(decoded).isEmpty();
  }
}
