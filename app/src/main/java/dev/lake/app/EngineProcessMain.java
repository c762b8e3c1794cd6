package dev.lake.app;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.FormatContext;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import dev.lake.core.TableReader;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.sandbox.EngineHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * An engine process (started by {@link dev.lake.sandbox.EngineSupervisor}): reads its {@link
 * EngineSpec} from the first line of stdin, opens the table formats' readers and a one-pool DuckDB
 * engine exactly as {@link LakeRuntime} would, and serves it on the socket named by its first
 * argument until stdin closes. It spills under {@code <temp>/engine-<pid>} and removes such
 * directories of processes that no longer exist (a killed process leaves its spill behind).
 */
public final class EngineProcessMain {
  private EngineProcessMain() {}

  public static void main(String[] args) throws Exception {
    Path socket = Path.of(args[0]);
    EngineSpec spec = EngineSpec.fromLine(EngineHost.settingsLine(System.in));
    EngineConfig engine = ownSpill(spec.engine());
    List<AutoCloseable> owned = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator()) {
      FormatContext formats =
          new FormatContext(
              LakeRuntime.registry(spec.registry(), spec.aws().map(dev.lake.aws.AwsClients::new)),
              spec.registry().freshness(),
              allocator,
              ObjectStorage.access(spec.aws()),
              spec.formats());
      List<CatalogPlugin> plugins = TableFormats.installed().open(formats);
      plugins.forEach(c -> c.owner().ifPresent(owned::add));
      List<TableReader> readers = plugins.stream().flatMap(c -> c.readers().stream()).toList();
      try (DuckDbQueryEngine duck = new DuckDbQueryEngine(engine, readers)) {
        readers.forEach(TableReader::warmUp);
        warmUp(duck, allocator);
        EngineHost.serve(duck, allocator, socket, System.in);
      } finally {
        for (int i = owned.size() - 1; i >= 0; i--) {
          owned.get(i).close();
        }
      }
    }
    System.exit(0);
  }

  /**
   * Plans and runs one statement before the process listens (after the readers loaded their native
   * libraries, {@link TableReader#warmUp}), so a tenant's first statement does not pay for loading
   * and compiling the engine's paths inside its planning timeout.
   */
  private static void warmUp(DuckDbQueryEngine engine, BufferAllocator allocator)
      throws IOException {
    AdmittedQuery query =
        AdmittedQuery.of("SELECT 1 AS warm", AdmittedQuery.Kind.SELECT, List.of());
    engine.plan(query, SnapshotSet.empty());
    try (QueryExecution x = engine.execute(query, List.of(), SnapshotSet.empty(), allocator)) {
      while (x.reader().loadNextBatch()) {
        // drain
      }
    }
  }

  private static EngineConfig ownSpill(EngineConfig config) throws IOException {
    Path temp = config.tempDirectory();
    Files.createDirectories(temp);
    try (Stream<Path> old = Files.list(temp)) {
      old.filter(p -> p.getFileName().toString().startsWith("engine-"))
          .filter(p -> !alive(p.getFileName().toString().substring("engine-".length())))
          .forEach(EngineProcessMain::deleteTree);
    }
    return EngineConfigBuilder.builder(config)
        .tempDirectory(temp.resolve("engine-" + ProcessHandle.current().pid()))
        .build();
  }

  private static boolean alive(String pid) {
    try {
      return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) {
      return true; // not ours
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
