package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.iceberg.demo.RestCatalogFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's catalog warm-up: real loads through Iceberg's own REST server and client. */
class CatalogWarmupTest {
  @TempDir Path dir;

  @Test
  void warmup_loadsEveryTableRoundRobin_firstInFullThenNotModified() throws Exception {
    // GIVEN Iceberg's REST server with two tables
    try (RestCatalogFixture fixture = RestCatalogFixture.startLocal(dir)) {
      ((SupportsNamespaces) fixture.backend()).createNamespace(Namespace.of("w"));
      Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
      List<TableIdentifier> tables =
          List.of(TableIdentifier.of("w", "a"), TableIdentifier.of("w", "b"));
      tables.forEach(t -> fixture.backend().createTable(t, schema, PartitionSpec.unpartitioned()));

      // WHEN warmed with a budget far above the load cap
      int loads = CatalogWarmup.run(fixture.uri(), tables, Duration.ofMinutes(5), 40);

      // THEN it stopped at the cap, loaded both tables alike, and every load after a table's first
      // was answered 304 Not Modified (the client's table cache, as lake's loads are)
      assertThat(loads).isEqualTo(40);
      for (TableIdentifier t : tables) {
        List<Integer> statuses = fixture.loadTableStatuses("w", t.name());
        assertThat(statuses).hasSize(20);
        assertThat(statuses.get(0)).isEqualTo(200);
        assertThat(statuses.subList(1, statuses.size())).containsOnly(304).hasSize(20 - 1);
      }
    }
  }

  @Test
  void budget_defaultsToThirtySeconds_zeroOrAColdRunTurnsItOff() throws Exception {
    // GIVEN no setting, a setting, a cold run (--warmups 0), and 0
    // WHEN read / THEN the default, the value, none for a cold run, and no loads at all for 0
    assertThat(CatalogWarmup.budget(Map.of(), 3)).isEqualTo(Duration.ofSeconds(30));
    assertThat(CatalogWarmup.budget(Map.of("LAKE_BENCH_CATALOG_WARMUP_MS", " 1500 "), 3))
        .isEqualTo(Duration.ofMillis(1500));
    assertThat(CatalogWarmup.budget(Map.of("LAKE_BENCH_CATALOG_WARMUP_MS", "1500"), 0))
        .isEqualTo(Duration.ZERO);
    try (RestCatalogFixture fixture = RestCatalogFixture.startLocal(dir)) {
      assertThat(
              CatalogWarmup.run(
                  fixture.uri(),
                  List.of(TableIdentifier.of("w", "missing")),
                  CatalogWarmup.budget(Map.of("LAKE_BENCH_CATALOG_WARMUP_MS", "0"), 3)))
          .isZero();
      assertThat(fixture.requests()).isEqualTo(Collections.emptyList());
    }
  }
}
