package dev.lake.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The worker's Iceberg environment variables. */
class WorkerRuntimeTest {
  @Test
  void iceberg_isOff_whenRestIsUnset() {
    assertThat(WorkerRuntime.iceberg(Map.of())).isEmpty();
  }

  @Test
  void iceberg_readsRestAllowAndWarehouse() {
    // GIVEN the variables the front door's --iceberg-* flags correspond to
    Map<String, String> env =
        Map.of(
            "LAKE_ICEBERG_REST", "http://127.0.0.1:8181/",
            "LAKE_ICEBERG_ALLOW", "tpch",
            "LAKE_ICEBERG_WAREHOUSE", "wh");
    // WHEN the worker reads them
    IcebergConfig config = WorkerRuntime.iceberg(env).orElseThrow();
    // THEN the catalog, warehouse and allowlist are the front door's
    assertThat(config.uri()).isEqualTo(URI.create("http://127.0.0.1:8181/"));
    assertThat(config.warehouse()).isEqualTo(Optional.of("wh"));
    assertThat(config.allowlist().allows(TableRef.parse("iceberg.tpch.lineitem"))).isTrue();
  }

  @Test
  void iceberg_rejectsAllowWithoutRest_andRestWithoutAllow() {
    assertThatThrownBy(() -> WorkerRuntime.iceberg(Map.of("LAKE_ICEBERG_ALLOW", "tpch")))
        .hasMessage("LAKE_ICEBERG_ALLOW/LAKE_ICEBERG_WAREHOUSE need LAKE_ICEBERG_REST");
    assertThatThrownBy(
            () -> WorkerRuntime.iceberg(Map.of("LAKE_ICEBERG_REST", "http://127.0.0.1:8181")))
        .hasMessage(
            "LAKE_ICEBERG_REST needs LAKE_ICEBERG_ALLOW: name the namespaces or tables to read");
  }
}
