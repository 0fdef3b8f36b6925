package dev.horae.spi.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PayloadBlocks}: the events a load reads into shared blocks are the events {@link
 * EventCodec#readArray} gives, payload for payload, and a payload stays what it was read as
 * whatever is read after it or done to the buffer it came from.
 */
class PayloadBlocksTest {

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  // a payload of about `size` bytes, with strings, numbers, escapes and a non-ASCII character
  private static String payload(Random random, int size) {
    StringBuilder s = new StringBuilder("{\"n\":").append(random.nextInt(1000)).append(",\"d\":2.50,\"s\":\"\u00e9\\n");
    while (s.length() < size) {
      s.append((char) ('a' + random.nextInt(26)));
    }
    return s.append("\",\"a\":[true,null,{}]}").toString();
  }

  private static String line(long seq, String payload) {
    return "[{\"seq\":" + seq + ",\"type\":\"t\",\"time\":7,\"data\":" + payload + "}]";
  }

  /** Lines laid out as a store's scanner leaves them: white space, the text, a newline. */
  private static final class Buffer {
    private final byte[] bytes;
    private final List<int[]> texts;

    private Buffer(byte[] bytes, List<int[]> texts) {
      this.bytes = bytes;
      this.texts = texts;
    }

    byte[] bytes() {
      return bytes;
    }

    List<int[]> texts() {
      return texts;
    }

    static Buffer of(List<String> lines) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<int[]> texts = new ArrayList<>();
      for (String line : lines) {
        out.writeBytes(utf8("         "));
        byte[] text = utf8(line);
        texts.add(new int[] {out.size(), text.length});
        out.writeBytes(text);
        out.write('\n');
      }
      return new Buffer(out.toByteArray(), texts);
    }

    List<SessionEvent> read(PayloadBlocks blocks) {
      List<SessionEvent> events = new ArrayList<>();
      try (EventCodec.Texts reader = EventCodec.texts(bytes, 0, bytes.length, blocks)) {
        for (int[] text : texts) {
          events.addAll(reader.read(text[0], text[1]).orElseThrow());
        }
      }
      return events;
    }

    List<SessionEvent> alone() {
      List<SessionEvent> events = new ArrayList<>();
      for (int[] text : texts) {
        events.addAll(EventCodec.readArray(bytes, text[0], text[1]));
      }
      return events;
    }
  }

  private static String text(SessionEvent e) {
    return new String(e.dataArray(), e.dataOffset(), e.dataLength(), StandardCharsets.UTF_8);
  }

  @Test
  void eventsReadIntoBlocksAreTheEventsReadAloneAndSurviveTheirBuffer() {
    Random random = new Random(1905);
    PayloadBlocks blocks = new PayloadBlocks();
    List<SessionEvent> read = new ArrayList<>();
    List<SessionEvent> expected = new ArrayList<>();
    List<String> payloads = new ArrayList<>();
    long seq = 0;
    // several buffers of one load, as a store's scanner reads a file 1 MiB at a time
    for (int b = 0; b < 20; b++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        int size = random.nextInt(10) == 0 ? random.nextInt(PayloadBlocks.LARGEST / 2) : 20 + random.nextInt(400);
        String payload = payload(random, size);
        payloads.add(payload);
        lines.add(line(seq++, payload));
      }
      Buffer buffer = Buffer.of(lines);
      expected.addAll(buffer.alone());
      read.addAll(buffer.read(blocks));
      // the scanner reuses its buffer: what it writes there later reaches no event
      Arrays.fill(buffer.bytes(), (byte) 'x');
    }
    assertThat(read).isEqualTo(expected);
    for (int i = 0; i < read.size(); i++) {
      SessionEvent e = read.get(i);
      assertThat(text(e)).isEqualTo(payloads.get(i));
      assertThat(e.data()).isEqualTo(expected.get(i).data());
      assertThat(e.hashCode()).isEqualTo(expected.get(i).hashCode());
      assertThat(e.toString()).isEqualTo(expected.get(i).toString());
    }
    assertThat(EventCodec.writeArray(read)).isEqualTo(EventCodec.writeArray(expected));
  }

  @Test
  void anArrayReadIntoBlocksIsTheArrayReadAloneOnEitherPath() {
    Random random = new Random(23);
    for (int i = 0; i < 200; i++) {
      String first = line(i, payload(random, 50));
      String second = line(i + 1, payload(random, 80));
      String canonical = first.substring(0, first.length() - 1) + "," + second.substring(1);
      // white space between the members: the parser's path
      String spaced = canonical.replace(",\"type\"", " , \"type\"");
      for (String text : List.of(canonical, spaced)) {
        byte[] bytes = utf8("  " + text + "  ");
        List<SessionEvent> alone = EventCodec.readArray(bytes, 2, bytes.length - 4);
        List<SessionEvent> read = EventCodec.readArray(bytes, 2, bytes.length - 4, new PayloadBlocks());
        Arrays.fill(bytes, (byte) 'x');
        assertThat(read).as(text).isEqualTo(alone).hasSize(2);
        // both payloads in one shared block, on either path
        assertThat(read.get(0).dataArray()).isSameAs(read.get(1).dataArray());
        assertThat(alone.get(0).dataArray()).isNotSameAs(alone.get(1).dataArray());
      }
    }
    byte[] wrong = utf8("[{\"seq\":0,\"type\":\"t\",\"time\":7}]");
    assertThatThrownBy(() -> EventCodec.readArray(wrong, 0, wrong.length, new PayloadBlocks()))
        .isInstanceOf(EventCodec.Unreadable.class)
        .hasMessage(catchMessage(() -> EventCodec.readArray(wrong, 0, wrong.length)));
  }

  private static String catchMessage(Runnable read) {
    try {
      read.run();
    } catch (RuntimeException e) {
      return String.valueOf(e.getMessage());
    }
    throw new AssertionError("no error");
  }

  @Test
  void smallPayloadsShareBlocksThatDoubleUpToTheLargestAndALargeOneHasItsOwnArray() {
    Random random = new Random(3);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 6000; i++) {
      lines.add(line(i, payload(random, 200)));
    }
    String large = payload(random, PayloadBlocks.LARGEST / 4 + 1);
    lines.add(line(6000, large));
    lines.add(line(6001, "1"));
    List<SessionEvent> events = Buffer.of(lines).read(new PayloadBlocks());

    // the distinct arrays in the order first used, and how many payloads each holds
    IdentityHashMap<byte[], Integer> held = new IdentityHashMap<>();
    List<byte[]> order = new ArrayList<>();
    for (SessionEvent e : events.subList(0, 6000)) {
      if (held.merge(e.dataArray(), 1, Integer::sum) == 1) {
        order.add(e.dataArray());
      }
    }
    List<Integer> sizes = order.stream().map(a -> a.length).toList();
    List<Integer> expected = new ArrayList<>();
    for (int size = PayloadBlocks.FIRST; expected.size() < sizes.size(); size = Math.min(size * 2, PayloadBlocks.LARGEST)) {
      expected.add(size);
    }
    assertThat(sizes).isEqualTo(expected);
    assertThat(sizes).contains(PayloadBlocks.LARGEST);
    // about 1.2 MB of payloads in a few blocks, not an array each
    assertThat(order.size()).isLessThan(20);
    for (byte[] block : order) {
      assertThat(held.get(block)).isGreaterThan(1);
    }

    SessionEvent big = events.get(6000);
    assertThat(big.dataOffset()).isZero();
    assertThat(big.dataLength()).isEqualTo(big.dataArray().length);
    assertThat(text(big)).isEqualTo(large);
    // the block in use goes on after the large payload
    assertThat(events.get(6001).dataArray()).isSameAs(events.get(5999).dataArray());
    assertThat(text(events.get(6001))).isEqualTo("1");
  }

  @Test
  void aReaderWithoutBlocksGivesEveryPayloadAnArrayOfItsOwn() {
    Random random = new Random(11);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      lines.add(line(i, payload(random, 30)));
    }
    Buffer buffer = Buffer.of(lines);
    List<SessionEvent> events = new ArrayList<>();
    try (EventCodec.Texts reader = EventCodec.texts(buffer.bytes(), 0, buffer.bytes().length)) {
      for (int[] text : buffer.texts()) {
        events.addAll(reader.read(text[0], text[1]).orElseThrow());
      }
    }
    for (SessionEvent e : events) {
      assertThat(e.dataOffset()).isZero();
      assertThat(e.dataLength()).isEqualTo(e.dataArray().length);
    }
    assertThat(events).isEqualTo(buffer.alone());
  }

  @Test
  void payloadIsTheEventsOwnTextReadOnlyAlsoInsideASharedBlock() throws IOException {
    Random random = new Random(77);
    List<String> lines = new ArrayList<>();
    List<String> payloads = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String payload = payload(random, 10 + random.nextInt(200));
      payloads.add(payload);
      lines.add(line(i, payload));
    }
    List<SessionEvent> events = Buffer.of(lines).read(new PayloadBlocks());
    // the events share a block, so each view must start and end at its own payload
    assertThat(events.get(1).dataArray()).isSameAs(events.get(0).dataArray());
    assertThat(events.get(1).dataOffset()).isPositive();
    for (int i = 0; i < events.size(); i++) {
      java.nio.ByteBuffer view = events.get(i).payload();
      assertThat(view.isReadOnly()).isTrue();
      assertThat(view.position()).isZero();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(payloads.get(i));
      assertThat(view.get(0)).isEqualTo(payloads.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8)[0]);
      // a range's text is its own bytes decoded, whole or in part, and nothing outside the payload
      SessionEvent event = events.get(i);
      assertThat(event.payloadText(0, bytes.length)).isEqualTo(payloads.get(i));
      int from = random.nextInt(bytes.length + 1);
      int to = from + random.nextInt(bytes.length - from + 1);
      assertThat(event.payloadText(from, to))
          .isEqualTo(new String(bytes, from, to - from, java.nio.charset.StandardCharsets.UTF_8));
      assertThatThrownBy(() -> event.payloadText(0, bytes.length + 1)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> event.payloadText(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> event.payloadText(2, 1)).isInstanceOf(IndexOutOfBoundsException.class);
      // the event's own parser reads its slice of the block, to its end and no further
      try (JsonParser own = events.get(i).dataParser()) {
        assertThat(Json.mapper().<JsonNode>readTree(own)).isEqualTo(Json.parse(payloads.get(i)));
        assertThat(own.nextToken()).isNull();
      }
    }
  }
}
