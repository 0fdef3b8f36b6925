package dev.horae.examples.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.horae.spi.session.SessionEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the campaigns that kill JVMs share (the crash campaign, and the chaos campaign of {@code
 * dev.horae.examples.chaos}): launching a child JVM on the test's class path, reading its lines,
 * killing it with SIGKILL, and recognising a reminder delivery in a log.
 */
public final class ChildJvm {

  private static final Pattern SCHEDULE_ID = Pattern.compile("schedule_id_json: \"([^\"]+)\"");

  private ChildJvm() {}

  /**
   * Starts {@code main} in a new JVM on this JVM's class path, its stderr written to a file.
   *
   * @param main the class whose {@code main} runs
   * @param stderr where the child's stderr goes
   * @param maxHeap the child's {@code -Xmx} value, e.g. {@code 256m}
   * @param args the program arguments
   * @return the process
   * @throws IOException when it cannot start
   */
  public static Process start(Class<?> main, Path stderr, String maxHeap, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // short-lived children: the C1 compiler alone and a small heap start fastest
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx" + maxHeap);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
  }

  /**
   * The child's stdout as UTF-8 lines.
   *
   * @param process the child
   * @return a reader
   */
  public static BufferedReader stdout(Process process) {
    return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /**
   * The child's stderr so far, for a failure message.
   *
   * @param file the file {@link #start} redirected it to
   * @return its text, or a note why it cannot be read
   */
  public static String stderr(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(stderr unreadable: " + e.getMessage() + ")";
    }
  }

  /**
   * Kills the child with SIGKILL and waits, bounded, until it is gone.
   *
   * @param child the child
   * @throws InterruptedException when interrupted while waiting
   */
  public static void kill(Process child) throws InterruptedException {
    // SIGKILL through the handle: Process.destroyForcibly would also close our end of its stdout
    assertThat(child.toHandle().destroyForcibly()).isTrue();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  /**
   * The id of the reminder a Schedule follow-up delivers, or null when the event is not one.
   *
   * @param e an event of a session log
   * @return the reminder's id, or null
   */
  public static @Nullable String deliveredId(SessionEvent e) {
    if (!e.type().equals("user/message")
        || !e.data().path("source").path("plugin").asText().equals("tool-schedule")) {
      return null;
    }
    Matcher m = SCHEDULE_ID.matcher(text(e.data()));
    return m.find() ? m.group(1) : null;
  }

  /** Every text value in a JSON tree, joined. */
  private static String text(JsonNode node) {
    if (node.isTextual()) {
      return node.asText();
    }
    StringBuilder all = new StringBuilder();
    node.forEach(child -> all.append(text(child)).append('\n'));
    return all.toString();
  }
}
