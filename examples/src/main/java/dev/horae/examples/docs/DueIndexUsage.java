package dev.horae.examples.docs;

import dev.horae.runtime.DueSessions;
import dev.horae.runtime.HoraeRuntime;
import dev.horae.schedule.tools.SchedulePlugin;
import dev.horae.schedule.tools.ScheduleDueIndex;
import dev.horae.spi.model.ModelPort;
import dev.horae.store.DueIndexer;
import dev.horae.store.FileSessionStore;
import dev.horae.store.JdbcSessionStore;
import dev.horae.store.MemorySessionStore;
import dev.horae.store.SyncMode;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snippets of the due index ({@code docs/persistence.md}, "The due index"; {@code
 * docs/schedule.md}, "Reminders of sessions nobody holds open"; {@code docs/runtime.md}, "Due
 * sessions"), compiled.
 */
public final class DueIndexUsage {

  private static final Logger log = LoggerFactory.getLogger(DueIndexUsage.class);

  private DueIndexUsage() {}

  /**
   * A runtime over the file store under {@code horae-data} that serves the reminders of sessions
   * nobody holds open, while {@code serve} runs.
   *
   * @param model the model
   * @param serve what the application does meanwhile (it returns when the process should stop)
   */
  public static void embedded(ModelPort model, Consumer<HoraeRuntime> serve) {
    // the file store the runtime opens itself
    try (HoraeRuntime horae = HoraeRuntime.builder()
        .dataDir(Path.of("horae-data"))
        .dueIndexer(ScheduleDueIndex::track)                                 // the store keeps the index
        .dueSessions(DueSessions.Settings.DEFAULTS.withMaxOpen(32))           // the worker's settings
        .model(model).build()) {
      horae.install(SchedulePlugin.create());
      DueSessions due = horae.startDueSessions();                            // after the plugins
      var unused = due.onPass(pass -> log.info("opened {}, {} open", pass.opened(), pass.open()));
      serve.accept(horae);
    }
  }

  /**
   * The three stores, each opened with Schedule's indexer composed with the gate's scheduled actions.
   *
   * @param dataSource connections to PostgreSQL
   * @param root a file store folder
   * @return what each store's index holds now (their entries due by the end of time)
   */
  public static List<Integer> stores(DataSource dataSource, Path root) {
    // a store the application opens: give it the indexer there — reminders and scheduled actions
    DueIndexer due = HoraeRuntime.dueIndexer(ScheduleDueIndex::track);
    JdbcSessionStore store = JdbcSessionStore.create(dataSource, "horae_", due);
    FileSessionStore file = FileSessionStore.open(root, SyncMode.ALWAYS, due);
    MemorySessionStore memory = new MemorySessionStore(due);
    try (file) {
      store.migrate();
      return List.of(
          store.dueIndex().orElseThrow().dueBy(Long.MAX_VALUE, Integer.MAX_VALUE).size(),
          file.dueIndex().orElseThrow().dueBy(Long.MAX_VALUE, Integer.MAX_VALUE).size(),
          memory.dueIndex().orElseThrow().dueBy(Long.MAX_VALUE, Integer.MAX_VALUE).size());
    }
  }

  /**
   * The runtime of {@code docs/schedule.md}: the defaults, over {@code dir}.
   *
   * @param dir the data folder
   * @param model the model
   * @return the running runtime, its worker started; the caller closes it
   */
  public static HoraeRuntime withDefaults(Path dir, ModelPort model) {
    HoraeRuntime horae = HoraeRuntime.builder().dataDir(dir)
        .dueIndexer(ScheduleDueIndex::track)
        .dueSessions(DueSessions.Settings.DEFAULTS)
        .model(model).build();
    horae.install(SchedulePlugin.create());
    var unused = horae.startDueSessions();
    return horae;
  }
}
