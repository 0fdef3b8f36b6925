package dev.horae.invariant.internal.cli;

import dev.horae.spi.session.Json;
import dev.horae.spi.session.SessionEvent;
import dev.horae.spi.session.SessionHeader;
import dev.horae.store.CommitLogCorruptException;
import dev.horae.store.internal.frame.LineFrame;
import dev.horae.store.internal.frame.LineResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads session folders of the file store without touching them. The store's own {@code load}
 * takes the folder lock and cuts off a torn tail, which an offline checker must not do (the
 * session may belong to a live process), so this reader decodes each line with the store's framing
 * and applies the store's replay rules in memory: a bad last line is a torn write and is left out
 * (with a note); a bad line before other lines, or a seq gap, makes the log unreadable.
 */
final class SessionFolders {

  static final String HEADER_FILE = "header.json";
  static final String EVENTS_FILE = "events.log";

  private SessionFolders() {}

  /**
   * The session folders an argument names: a session folder, a file inside one, or a store root
   * (every session folder under it, by name).
   *
   * @param argument the path given on the command line
   * @return the folders
   * @throws IllegalArgumentException when the path names no session
   * @throws UncheckedIOException when a directory cannot be listed
   */
  static List<Path> resolve(Path argument) {
    if (Files.isRegularFile(argument)) {
      Path parent = argument.toAbsolutePath().getParent();
      if (parent != null && Files.isRegularFile(parent.resolve(HEADER_FILE))) {
        return List.of(parent);
      }
      throw new IllegalArgumentException("no " + HEADER_FILE + " next to " + argument);
    }
    if (!Files.isDirectory(argument)) {
      throw new IllegalArgumentException("no such file or directory");
    }
    if (Files.isRegularFile(argument.resolve(HEADER_FILE))) {
      return List.of(argument);
    }
    List<Path> sessions = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(argument, Files::isDirectory)) {
      for (Path dir : dirs) {
        if (Files.isRegularFile(dir.resolve(HEADER_FILE))) {
          sessions.add(dir);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("not a session folder, a session file or a store root");
    }
    sessions.sort(null);
    return sessions;
  }

  /**
   * Reads one session folder.
   *
   * @param folder the folder
   * @return header and events
   * @throws IOException when a file cannot be read
   * @throws IllegalArgumentException when the header is not a session header
   * @throws CommitLogCorruptException when the event file is corrupt before its last line
   */
  static StoredLog read(Path folder) throws IOException {
    SessionHeader header = SessionHeader.fromJson(
        Json.parse(Files.readString(folder.resolve(HEADER_FILE), StandardCharsets.UTF_8)));
    Path eventsFile = folder.resolve(EVENTS_FILE);
    if (!Files.exists(eventsFile)) {
      return new StoredLog(folder, header, List.of(), Optional.empty());
    }
    byte[] bytes = Files.readAllBytes(eventsFile);
    List<SessionEvent> events = new ArrayList<>();
    Optional<String> pending = Optional.empty();
    long pendingLine = 0;
    long pendingSeq = 0;
    long lineNumber = 0;
    int start = 0;
    while (start < bytes.length) {
      int end = start;
      while (end < bytes.length && bytes[end] != '\n') {
        end++;
      }
      lineNumber++;
      if (pending.isPresent()) {
        throw new CommitLogCorruptException(eventsFile, pendingLine, pendingSeq, pending.get());
      }
      if (end == bytes.length) {
        return new StoredLog(folder, header, events,
            Optional.of("torn last line " + lineNumber + " ignored (no final newline)"));
      }
      byte[] line = new byte[end - start];
      System.arraycopy(bytes, start, line, 0, line.length);
      long seq = events.size();
      LineResult result = LineFrame.decode(line, line.length, seq);
      if (result instanceof LineResult.Good good) {
        events.addAll(good.events());
      } else if (result instanceof LineResult.SeqGap gap) {
        throw new CommitLogCorruptException(
            eventsFile, lineNumber, seq, "seq gap: expected seq " + gap.expected() + ", found " + gap.found());
      } else {
        pending = Optional.of(((LineResult.BadFrame) result).why());
        pendingLine = lineNumber;
        pendingSeq = seq;
      }
      start = end + 1;
    }
    Optional<String> torn = Optional.empty();
    if (pending.isPresent()) {
      torn = Optional.of("torn last line " + pendingLine + " ignored (" + pending.get() + ")");
    }
    return new StoredLog(folder, header, events, torn);
  }
}
