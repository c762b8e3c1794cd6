package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.CacheStats;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Correctness before speed: all 22 TPC-H queries return, value for value, what DuckDB returns over
 * the same data as local Parquet — through lake over Lance ({@code lake.tpch}) and over Iceberg
 * ({@code iceberg.tpch}: direct reads with field-id maps and row estimates), with the official
 * Flight SQL JDBC driver, twice per catalog: read directly, then (at least partly) from the
 * engine's snapshot-cache copies. SF 0.01, the bench's own data (shared with {@link HarnessTest}).
 */
class TpchExactnessTest {
  @TempDir Path out;

  @Test
  void allTpchQueries_overLanceAndIceberg_returnExactlyDuckDbsRowsOverParquet() throws Exception {
    // GIVEN the bench's lake stack (Lance and Iceberg) and DuckDB over the same rows as Parquet
    Path cache = Path.of("target", "bench-test-cache").toAbsolutePath();
    BenchConfig config = new BenchConfig(0.01, 0, 1, out, cache, Set.of(), false, 0, 50);
    try (BenchContext context = new BenchContext(config)) {
      String missing = context.lakeMissing();
      LakeStack lake = context.lake().orElseThrow(() -> new AssertionError(missing));
      assertThat(lake.icebergMissing()).isEmpty();
      try (Connection duckdb = ClientSides.parquetViews(context.parquet());
          Connection flight = ClientSides.flightSqlJdbc(lake.uri(), lake.token())) {
        Map<String, String> baseline = TpchQueries.forCatalog("lake", TpchQueries.ALL_IDS);
        Map<String, List<List<String>>> expected = new HashMap<>();
        for (String id : TpchQueries.ALL_IDS) {
          expected.put(id, rows(duckdb, baseline.get(id)));
        }
        for (String catalog : List.of("lake", "iceberg")) {
          Map<String, String> queries = TpchQueries.forCatalog(catalog, TpchQueries.ALL_IDS);
          // Pass 1 reads the snapshots directly (copies are made in the background on a
          // snapshot's second read); pass 2 reads what was copied by then.
          for (int pass = 1; pass <= 2; pass++) {
            CacheStats before = lake.cacheStats().orElseThrow();
            for (String id : TpchQueries.ALL_IDS) {
              // WHEN lake runs the query THEN every row and value equals DuckDB's
              assertThat(rows(flight, queries.get(id)))
                  .as("%s over %s, pass %d", id, catalog, pass)
                  .isNotEmpty()
                  .isEqualTo(expected.get(id));
            }
            if (pass == 2) {
              // AND the second pass was answered from snapshot-cache copies, not only directly
              assertThat(lake.cacheStats().orElseThrow().snapshotHits() - before.snapshotHits())
                  .as("table reads from copies over %s in pass 2", catalog)
                  .isPositive();
            }
          }
        }
      }
    }
  }

  /**
   * Every row as text: decimals without trailing zeros, doubles to 12 significant digits (parallel
   * aggregation may sum in another order), everything else as the driver renders it.
   */
  private static List<List<String>> rows(Connection c, String sql) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(
              v instanceof BigDecimal d
                  ? d.stripTrailingZeros().toPlainString()
                  : v instanceof Double || v instanceof Float
                      ? String.format(Locale.ROOT, "%.12g", ((Number) v).doubleValue())
                      : String.valueOf(v));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
