package dev.horae.store.internal;

import dev.horae.spi.session.EventCodec;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.internal.frame.LineFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Event files for the scanner's tests, and a scan's whole answer as one comparable text. */
final class ScanFiles {

  private ScanFiles() {}

  /** One way of scanning a file. */
  interface Reader {
    LogScanner.Scan scan(Path file) throws IOException;
  }

  /** An event of seq {@code seq} with a non-ASCII payload string. */
  static String event(long seq) {
    return "{\"seq\":" + seq + ",\"type\":\"t\",\"time\":1,\"data\":{\"n\":" + seq + ",\"s\":\"v\u00e4\"}}";
  }

  /** Appends {@code json} framed as a stored line with its good checksum. */
  static void line(ByteArrayOutputStream out, String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    out.writeBytes(LineFrame.crcHex(bytes, 0, bytes.length).getBytes(StandardCharsets.US_ASCII));
    out.write(' ');
    out.writeBytes(bytes);
    out.write('\n');
  }

  /** The events, good length and torn tail of a scan, or the corruption's line, seq and text. */
  static String outcome(Path file, Reader reader) throws IOException {
    try {
      LogScanner.Scan scan = reader.scan(file);
      return new String(EventCodec.writeArray(scan.events()), StandardCharsets.UTF_8) + " " + scan.goodBytes() + " " + scan.torn();
    } catch (CommitLogCorruptException e) {
      return e.line() + " " + e.seq() + " " + e.getMessage();
    }
  }
}
