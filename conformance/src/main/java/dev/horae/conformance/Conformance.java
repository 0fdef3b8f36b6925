package dev.horae.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.horae.conformance.scenario.PluginCatalog;
import dev.horae.conformance.scenario.ScenarioHosts;
import dev.horae.conformance.scenario.ScenarioRunner;
import dev.horae.conformance.scenario.TestkitScenarioHosts;

/**
 * The command line of {@code conformance.jar}: {@code java -jar conformance.jar [--host CLASS]
 * FILE_OR_DIR...}. Vector cases run against the library; {@code scenario} cases run on the
 * in-memory reference host, or on the {@link ScenarioHosts} class named by {@code --host}. Prints one {@code FAIL} line per failing case and the closing {@code N passed, N failed} line;
 * exits 0 only when nothing failed, 1 when a case failed, 2 on a usage or I/O error.
 */
public final class Conformance {

  private Conformance() {}

  /**
   * Runs the cases named on the command line and exits with the run's status.
   *
   * @param args {@code [--host CLASS] FILE_OR_DIR...}
   */
  public static void main(String[] args) {
    // the adapters log through slf4j-api; the jar bundles no provider, so silence the notice
    System.setProperty("slf4j.internal.verbosity", "ERROR");
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    List<String> paths = new ArrayList<>(List.of(args));
    ScenarioHosts hosts = new TestkitScenarioHosts();
    if (paths.size() >= 2 && paths.get(0).equals("--host")) {
      try {
        hosts = Class.forName(paths.get(1)).asSubclass(ScenarioHosts.class).getConstructor().newInstance();
      } catch (ReflectiveOperationException | ClassCastException e) {
        err.println("conformance: --host needs a ScenarioHosts class with a public no-argument constructor: " + e);
        System.exit(2);
        return;
      }
      paths = paths.subList(2, paths.size());
    }
    ConformanceRunner runner =
        ConformanceRunner.standard(List.of(new ScenarioRunner(hosts, PluginCatalog.standard())));
    System.exit(run(paths.toArray(new String[0]), runner, out, err));
  }

  /**
   * Runs the cases named by {@code args} with {@code runner}.
   *
   * @param args files and directories of cases
   * @param runner the runner
   * @param out receives the {@code FAIL} lines and the summary
   * @param err receives usage and I/O errors
   * @return the exit status: 0 when nothing failed, 1 when a case failed, 2 on a usage or I/O error
   */
  public static int run(String[] args, ConformanceRunner runner, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("usage: java -jar conformance.jar [--host CLASS] FILE_OR_DIR...");
      return 2;
    }
    List<Path> paths = new ArrayList<>();
    for (String a : args) {
      paths.add(Path.of(a));
    }
    try {
      Report report = runner.run(paths, out::println);
      out.println(report.summary());
      return report.exitStatus();
    } catch (IOException e) {
      err.println("conformance: cannot read " + e.getMessage());
      return 2;
    }
  }
}
