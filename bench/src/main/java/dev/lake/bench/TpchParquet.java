package dev.lake.bench;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * TPC-H as local Parquet files, the data of the DuckDB baselines: io.trino.tpch rows appended into
 * native DuckDB tables with the Appender, then written by DuckDB {@code COPY … (FORMAT parquet)}.
 * Money columns are DECIMAL(15,2) and keys BIGINT, as in the TPC-H specification. Generated once
 * per scale factor; a directory with a {@code .complete} marker is reused.
 */
final class TpchParquet {
  private static final String MARKER = ".complete";

  private TpchParquet() {}

  /** The Parquet directory under {@code dataDir}, generating it first if missing. */
  static Path ensure(Path dataDir, double scaleFactor) throws Exception {
    Path dir = dataDir.resolve("parquet");
    if (Files.exists(dir.resolve(MARKER))) {
      return dir;
    }
    Path tmp = dataDir.resolve("parquet.tmp");
    deleteRecursively(tmp);
    Files.createDirectories(tmp);
    try (DuckDBConnection conn = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<Void>> done = new ArrayList<>();
        for (TpchTable<?> table : TpchTable.getTables()) {
          Connection own = conn.duplicate();
          done.add(
              pool.submit(
                  () -> {
                    try (own) {
                      load((DuckDBConnection) own, table, scaleFactor);
                      try (Statement st = own.createStatement()) {
                        st.execute(
                            "COPY "
                                + table.getTableName()
                                + " TO '"
                                + tmp.resolve(table.getTableName() + ".parquet")
                                + "' (FORMAT parquet)");
                        st.execute("DROP TABLE " + table.getTableName());
                      }
                    }
                    return null;
                  }));
        }
        for (Future<Void> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
    }
    Files.writeString(tmp.resolve(MARKER), "sf=" + scaleFactor + "\n");
    deleteRecursively(dir);
    Files.move(tmp, dir);
    return dir;
  }

  /** The DuckDB type of a generator column. */
  static String sqlType(TpchColumn<?> column) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> "BIGINT";
      case INTEGER -> "INTEGER";
      case DATE -> "DATE";
      case DOUBLE -> "DECIMAL(15,2)";
      case VARCHAR -> "VARCHAR";
    };
  }

  private static <E extends TpchEntity> void load(
      DuckDBConnection conn, TpchTable<E> table, double sf) throws Exception {
    List<String> defs = new ArrayList<>();
    for (TpchColumn<E> c : table.getColumns()) {
      defs.add(c.getColumnName() + " " + sqlType(c));
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + table.getTableName() + " (" + String.join(", ", defs) + ")");
    }
    List<TpchColumn<E>> columns = table.getColumns();
    try (DuckDBAppender appender = conn.createAppender("main", table.getTableName())) {
      for (E row : table.createGenerator(sf, 1, 1)) {
        appender.beginRow();
        for (TpchColumn<E> c : columns) {
          switch (c.getType().getBase()) {
            case IDENTIFIER -> appender.append(c.getIdentifier(row));
            case INTEGER -> appender.append(c.getInteger(row));
            case DATE -> appender.appendEpochDays(c.getDate(row));
            case DOUBLE ->
                appender.append(BigDecimal.valueOf(Math.round(c.getDouble(row) * 100), 2));
            case VARCHAR -> appender.append(c.getString(row));
          }
        }
        appender.endRow();
      }
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
