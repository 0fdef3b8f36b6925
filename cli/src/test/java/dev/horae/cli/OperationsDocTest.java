package dev.horae.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.horae.runtime.HoraeRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the command-line examples of docs/operations.md true: every line {@code $ horae …} in a
 * {@code text} block is run, in document order, against the {@link Fixture} store (the folder
 * {@code horae-data} stands for it, {@code com.example.OpsSetup} for {@link Setups.Deploy}); what
 * follows it up to the next command or the block's end must be exactly its standard output, then
 * its standard error, then {@code [exit N]} when the status is not 0.
 */
class OperationsDocTest {

  private static final Path DOC = Path.of("..", "docs", "operations.md");

  @Test
  void everyExampleInOperationsMdIsWhatTheCommandPrints(@TempDir Path dir) throws Exception {
    Fixture.write(HoraeRuntime.builder().dataDir(dir));
    List<String> lines = Files.readAllLines(DOC, StandardCharsets.UTF_8);
    int examples = 0;
    boolean inText = false;
    String command = null;
    List<String> expected = new ArrayList<>();
    for (String line : lines) {
      if (!inText) {
        inText = line.equals("```text");
        continue;
      }
      boolean end = line.equals("```");
      if (command != null && (end || line.startsWith("$ horae "))) {
        check(command, expected, dir);
        examples++;
        command = null;
        expected.clear();
      }
      if (end) {
        inText = false;
      } else if (line.startsWith("$ horae ")) {
        command = line.substring("$ horae ".length());
      } else if (command != null) {
        expected.add(line);
      }
    }
    assertThat(examples).as("examples in " + DOC).isGreaterThanOrEqualTo(8);
  }

  private static void check(String command, List<String> expected, Path dir) {
    List<String> args = new ArrayList<>();
    for (String a : command.split(" ", -1)) {
      args.add(a.replace("horae-data", dir.toString()).replace("com.example.OpsSetup", Setups.Deploy.class.getName()));
    }
    Fixture.Run run = Fixture.cli(args.toArray(String[]::new));
    List<String> actual = new ArrayList<>(run.out().lines().toList());
    run.err().lines().map(l -> l.replace(dir.toString(), "horae-data")).forEach(actual::add);
    if (run.exit() != ExitCode.OK) {
      actual.add("[exit " + run.exit() + "]");
    }
    assertThat(String.join("\n", actual)).as("$ horae " + command).isEqualTo(String.join("\n", expected));
  }
}
