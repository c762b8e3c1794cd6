package dev.lake.lance.demo;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.lance.LanceDatasets;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Demo data: the eight TPC-H tables generated with {@code io.trino.tpch}, written as Lance datasets
 * under {@code dataDir/tpch/<table>.lance} and registered as {@code lake.tpch.<table>}. Idempotent:
 * existing datasets and registrations are kept.
 */
public final class TpchDemo {
  /** Rows per Lance file: several fragments per large table so scans split into streams. */
  static final int ROWS_PER_FILE = 65_536;

  private TpchDemo() {}

  public static List<TableRef> generate(
      Path dataDir, double scaleFactor, Registry registry, BufferAllocator allocator) {
    requireNonNull(dataDir, "dataDir is null");
    requireNonNull(registry, "registry is null");
    requireNonNull(allocator, "allocator is null");
    if (!(scaleFactor > 0 && scaleFactor <= 100)) {
      throw new IllegalArgumentException("scaleFactor must be in (0, 100]: " + scaleFactor);
    }
    List<TableRef> refs = new ArrayList<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      TableRef ref = new TableRef(TableRef.LAKE, "tpch", table.getTableName());
      String location =
          dataDir
              .resolve("tpch")
              .resolve(table.getTableName() + ".lance")
              .toAbsolutePath()
              .toString();
      if (!LanceDatasets.exists(location)) {
        LanceDatasets.write(
            location,
            new TpchReader<>(allocator, table, scaleFactor),
            allocator,
            false,
            ROWS_PER_FILE);
      }
      if (registry.find(ref).isEmpty()) {
        registry.register(ref, location);
      }
      refs.add(ref);
    }
    return List.copyOf(refs);
  }
}
