package dev.lake.lance.demo;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Demo data: the eight TPC-H tables generated with {@code io.trino.tpch}, written as Lance datasets
 * under {@code <base>/tpch/<table>.lance} and registered as {@code lake.tpch.<table>}. Idempotent:
 * existing datasets and registrations are kept.
 */
public final class TpchDemo {
  /** Rows per Lance file: several fragments per large table so scans split into streams. */
  static final int ROWS_PER_FILE = 65_536;

  private TpchDemo() {}

  /** The demo's tables, {@code lake.tpch.<table>} for each TPC-H table. */
  public static List<TableRef> tables() {
    return TpchTable.getTables().stream()
        .map(t -> new TableRef(TableRef.LAKE, "tpch", t.getTableName()))
        .toList();
  }

  public static List<TableRef> generate(
      Path dataDir, double scaleFactor, Registry registry, BufferAllocator allocator) {
    requireNonNull(dataDir, "dataDir is null");
    return generate(
        dataDir.toAbsolutePath().toString(), scaleFactor, registry, allocator, Map.of());
  }

  /**
   * As {@link #generate(Path, double, Registry, BufferAllocator)} with {@code rowsPerFile} rows per
   * Lance file of each table (by TPC-H table name): tests that need many fragments of small tables.
   */
  public static List<TableRef> generate(
      Path dataDir,
      double scaleFactor,
      Registry registry,
      BufferAllocator allocator,
      java.util.function.ToIntFunction<String> rowsPerFile) {
    requireNonNull(dataDir, "dataDir is null");
    return generate(
        dataDir.toAbsolutePath().toString(),
        scaleFactor,
        registry,
        allocator,
        Map.of(),
        line -> {},
        rowsPerFile);
  }

  /**
   * As {@link #generate(Path, double, Registry, BufferAllocator)} under any Lance location: a local
   * directory or an object-store prefix such as {@code s3://bucket/lance}, with the deployment's
   * Lance {@code storageOptions}.
   */
  public static List<TableRef> generate(
      String base,
      double scaleFactor,
      Registry registry,
      BufferAllocator allocator,
      Map<String, String> storageOptions) {
    return generate(base, scaleFactor, registry, allocator, storageOptions, line -> {});
  }

  /**
   * As {@link #generate(String, double, Registry, BufferAllocator, Map)}, telling {@code progress}
   * one line per table as it is written (generation at larger scales takes minutes; a person
   * waiting at a terminal should see it move).
   */
  public static List<TableRef> generate(
      String base,
      double scaleFactor,
      Registry registry,
      BufferAllocator allocator,
      Map<String, String> storageOptions,
      Consumer<String> progress) {
    return generate(
        base, scaleFactor, registry, allocator, storageOptions, progress, t -> ROWS_PER_FILE);
  }

  private static List<TableRef> generate(
      String base,
      double scaleFactor,
      Registry registry,
      BufferAllocator allocator,
      Map<String, String> storageOptions,
      Consumer<String> progress,
      java.util.function.ToIntFunction<String> rowsPerFile) {
    requireNonNull(base, "base is null");
    requireNonNull(progress, "progress is null");
    requireNonNull(registry, "registry is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(storageOptions, "storageOptions is null");
    if (!(scaleFactor > 0 && scaleFactor <= 100)) {
      throw new IllegalArgumentException("scaleFactor must be in (0, 100]: " + scaleFactor);
    }
    String root = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    List<TableRef> refs = new ArrayList<>();
    List<TpchTable<?>> tables = TpchTable.getTables();
    for (TpchTable<?> table : tables) {
      TableRef ref = new TableRef(TableRef.LAKE, "tpch", table.getTableName());
      String location = root + "/tpch/" + table.getTableName() + ".lance";
      if (!LanceDatasets.exists(location, allocator, storageOptions)) {
        long started = System.nanoTime();
        LanceDatasets.write(
            location,
            new TpchReader<>(allocator, table, scaleFactor),
            allocator,
            false,
            rowsPerFile.applyAsInt(table.getTableName()),
            storageOptions);
        progress.accept(
            String.format(
                "  %-8s written (%d/%d, %d ms)",
                table.getTableName(),
                refs.size() + 1,
                tables.size(),
                (System.nanoTime() - started) / 1_000_000));
      }
      if (registry.find(ref).isEmpty()) {
        LanceFormat.register(registry, ref, location);
      }
      refs.add(ref);
    }
    return List.copyOf(refs);
  }
}
