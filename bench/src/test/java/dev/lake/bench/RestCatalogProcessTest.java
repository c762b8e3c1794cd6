package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's Iceberg REST catalog in its own JVM: served over HTTP to a real Iceberg REST client,
 * loadTable requests counted in the catalog's process, cold tables created there, and a clear error
 * once the JVM is gone. Uses the bench test cache's catalog (shared with {@link HarnessTest}).
 */
class RestCatalogProcessTest {
  @TempDir Path work;

  @Test
  void catalogJvm_servesRestClients_countsTheirLoads_andKeepsAnswersInOrderThroughInterrupts()
      throws Exception {
    // GIVEN the catalog JVM over the bench test cache's TPC-H data
    Path data = Path.of("target", "bench-test-cache", "sf-0.01").toAbsolutePath();
    Path parquet = TpchParquet.ensure(data, 0.01);
    Path log = work.resolve("rest-catalog.log");
    RestCatalogProcess catalog =
        RestCatalogProcess.start(data.resolve("iceberg-one-file-per-table"), parquet, log);
    try (catalog) {
      String table = "nation_test_" + System.nanoTime();
      catalog.createNation(IcebergPart.COLD_NAMESPACE, table);
      assertThat(catalog.loadTableRequests(IcebergPart.COLD_NAMESPACE, table)).isZero();

      // WHEN a real Iceberg REST client loads the new table twice
      try (RESTCatalog client = new RESTCatalog()) {
        Map<String, String> props = new HashMap<>();
        props.put("uri", catalog.uri().toString());
        client.initialize("bench-test", props);
        TableIdentifier id = TableIdentifier.of(IcebergPart.COLD_NAMESPACE, table);
        assertThat(client.loadTable(id).currentSnapshot()).isNotNull();
        client.loadTable(id);
      }

      // THEN the catalog's process counted both
      assertThat(catalog.loadTableRequests(IcebergPart.COLD_NAMESPACE, table)).isEqualTo(2);
      // AND an asker interrupted while waiting still gets its own answer and keeps the interrupt,
      // so the next command is not answered with a stale line
      AtomicLong seen = new AtomicLong(-1);
      AtomicBoolean keptInterrupt = new AtomicBoolean();
      Thread asker =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                seen.set(catalog.loadTableRequests(IcebergPart.COLD_NAMESPACE, table));
                keptInterrupt.set(Thread.currentThread().isInterrupted());
              });
      asker.start();
      asker.join();
      assertThat(seen.get()).isEqualTo(2);
      assertThat(keptInterrupt).isTrue();
      assertThat(catalog.loadTableRequests(IcebergPart.COLD_NAMESPACE, "never_created")).isZero();
      // AND a command the catalog cannot carry out is an error, not a number
      assertThatThrownBy(() -> catalog.createNation("bad namespace", "t"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("REST catalog JVM");
    }

    // AND once closed, every command fails clearly instead of hanging
    assertThatThrownBy(() -> catalog.loadTableRequests(IcebergPart.COLD_NAMESPACE, "t"))
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("REST catalog JVM");
  }
}
