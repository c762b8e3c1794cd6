package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.Grant;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.lance.demo.TpchDemo;
import dev.lake.sandbox.SandboxConfig;
import dev.lake.sandbox.SandboxedQueryEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's sandboxed engine end to end: real engine processes ({@link EngineProcessMain})
 * rebuilt from the parent's settings read real Lance tables; a tenant's memory bomb kills only its
 * own process and the next statement answers.
 */
class EngineProcessesTest {
  @TempDir Path dir;

  @Test
  void processIsolation_readsLanceTables_andSurvivesAMemoryBomb() throws Exception {
    Path registryFile = dir.resolve("registry.json");
    try (RootAllocator allocator = new RootAllocator()) {
      TpchDemo.generate(dir.resolve("data"), 0.01, new FileRegistry(registryFile), allocator);
    }
    EngineConfig engine =
        EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
            .memoryLimitBytes(256L << 20)
            .memoryPools(2)
            .snapshotCacheBytes(32L << 20)
            .threads(2)
            .build();
    RuntimeConfig config =
        RuntimeConfig.builder(
                RegistrySource.file(registryFile),
                new KeySource.CreatedFile(dir.resolve("keyring.json")),
                engine)
            .formatSettings(List.of(DataLocations.of(dir.resolve("data"))))
            .sandbox(SandboxConfig.defaults().withCeilingBytes(640L << 20))
            .build();
    Principal alice = new Principal("acme", "alice", Set.of(Grant.parse("lake.tpch")));
    Principal carol = new Principal("globex", "carol", Set.of(Grant.parse("lake.tpch")));
    try (LakeRuntime runtime = LakeRuntime.start(config);
        RootAllocator allocator = new RootAllocator()) {
      assertThat(runtime.engine()).isInstanceOf(SandboxedQueryEngine.class);
      DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
      AdmittedQuery count = admission.admit("SELECT count(*) AS n FROM lake.tpch.lineitem");
      SnapshotSet snapshots = runtime.catalogs().resolveAll(alice, count);
      QueryEngine acme = runtime.engine().forTenant("acme");
      assertThat(acme.plan(count, snapshots).getFields())
          .extracting(f -> f.getName())
          .containsExactly("n");
      assertThat(single(acme, count, snapshots, allocator)).isEqualTo(60_175L);

      AdmittedQuery bomb =
          admission.admit(
              "SELECT list(range) OVER (ORDER BY range ROWS BETWEEN UNBOUNDED PRECEDING AND"
                  + " CURRENT ROW) AS l FROM range(30000)");
      assertThatThrownBy(() -> single(acme, bomb, SnapshotSet.empty(), allocator))
          .isInstanceOfSatisfying(
              LakeException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED));
      // another tenant's fresh statement and the same tenant's next one both answer
      AdmittedQuery nations = admission.admit("SELECT count(*) AS n FROM lake.tpch.nation");
      QueryEngine globex = runtime.engine().forTenant("globex");
      assertThat(single(globex, nations, runtime.catalogs().resolveAll(carol, nations), allocator))
          .isEqualTo(25L);
      assertThat(single(acme, count, snapshots, allocator)).isEqualTo(60_175L);
    }
  }

  @Test
  void engineProcess_enforcesTheDataLocationsOfItsSpec_evenWhenTheParentResolved()
      throws Exception {
    // GIVEN Lance tables under dir/data, resolved by a parent allowed to read them
    Path registryFile = dir.resolve("registry.json");
    try (RootAllocator allocator = new RootAllocator()) {
      TpchDemo.generate(dir.resolve("data"), 0.01, new FileRegistry(registryFile), allocator);
    }
    EngineConfig engine =
        EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
            .memoryLimitBytes(128L << 20)
            .memoryPools(1)
            .snapshotCacheBytes(16L << 20)
            .threads(1)
            .build();
    RuntimeConfig.Builder parent =
        RuntimeConfig.builder(
                RegistrySource.file(registryFile),
                new KeySource.CreatedFile(dir.resolve("keyring.json")),
                engine)
            .formatSettings(List.of(DataLocations.of(dir.resolve("data"))));
    // AND an engine process whose spec allows only another directory
    RuntimeConfig child =
        RuntimeConfig.builder(
                RegistrySource.file(registryFile),
                new KeySource.CreatedFile(dir.resolve("keyring.json")),
                engine)
            .formatSettings(List.of(DataLocations.of(dir.resolve("elsewhere"))))
            .sandbox(SandboxConfig.defaults().withCeilingBytes(512L << 20))
            .build();
    Principal alice = new Principal("acme", "alice", Set.of(Grant.parse("lake.tpch")));
    try (LakeRuntime runtime = LakeRuntime.start(parent.build());
        QueryEngine sandboxed = EngineProcesses.engine(child);
        RootAllocator allocator = new RootAllocator()) {
      DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
      AdmittedQuery count = admission.admit("SELECT count(*) AS n FROM lake.tpch.region");
      SnapshotSet snapshots = runtime.catalogs().resolveAll(alice, count);
      QueryEngine acme = sandboxed.forTenant("acme");
      // WHEN the child is asked to plan and run a statement over them
      // THEN it refuses itself, naming the table, never the path
      String refused =
          "Table lake.tpch.region refers to data outside this deployment's data locations; lake"
              + " does not read it (an operator can allow the location with --data-locations"
              + " (LAKE_DATA_LOCATIONS))";
      assertThatThrownBy(() -> acme.plan(count, snapshots))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
          .hasMessage(refused);
      assertThatThrownBy(() -> single(acme, count, snapshots, allocator))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
          .hasMessage(refused);
      // AND another tenant's fresh statement on the same process still answers
      AdmittedQuery fresh = admission.admit("SELECT 41 + 1 AS n");
      assertThat(single(sandboxed.forTenant("globex"), fresh, SnapshotSet.empty(), allocator))
          .isEqualTo(42);
    }
  }

  private static Object single(
      QueryEngine engine, AdmittedQuery query, SnapshotSet snapshots, RootAllocator allocator)
      throws Exception {
    try (QueryExecution x = engine.execute(query, List.of(), snapshots, allocator)) {
      Object value = null;
      while (x.reader().loadNextBatch()) {
        if (x.reader().getVectorSchemaRoot().getRowCount() > 0 && value == null) {
          value = x.reader().getVectorSchemaRoot().getVector(0).getObject(0);
        }
      }
      return value;
    }
  }
}
