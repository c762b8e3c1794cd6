package dev.lake.engine;

import dev.lake.core.FileScanSource;
import dev.lake.core.TableReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The engine's side of {@link FileScanSource}: which directories its DuckDB may read. */
final class FileScans {
  private FileScans() {}

  /**
   * Every readable directory of the readers that are {@link FileScanSource}s, absolute and
   * normalized, each ending in the separator (so {@code /a/b/} never admits {@code /a/bc}).
   */
  static List<String> readableDirectories(List<TableReader> readers) {
    List<String> out = new ArrayList<>();
    for (TableReader r : readers) {
      if (r instanceof FileScanSource source) {
        for (Path p : source.readableDirectories()) {
          String dir = p.toAbsolutePath().normalize().toString();
          out.add(dir.endsWith("/") ? dir : dir + "/");
        }
      }
    }
    return out;
  }
}
