package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.CatalogPlugin;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.TestArrow;
import dev.lake.core.testing.TestFormatContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 1, hostile, for Lance: registry entries outside the deployment's data locations —
 * written to the store directly, as an older process or a hand edit would — are refused at read
 * time with PERMISSION_DENIED naming the table before Lance opens anything, and a sealed snapshot
 * of such a location is refused by the reader too; a fresh read of a good table then succeeds.
 */
class DataLocationsLanceTest {
  @Test
  void read_refusesEntriesOutsideTheDataLocations_andAFreshReadSucceeds(@TempDir Path dir)
      throws Exception {
    try (RootAllocator allocator = new RootAllocator()) {
      // GIVEN real datasets inside and outside the allowed directory, and escapes into the outside
      Path data = Files.createDirectories(dir.resolve("data")).toRealPath();
      Path outside = Files.createDirectories(dir.resolve("outside")).toRealPath();
      String good = data.resolve("good.lance").toString();
      String foreign = outside.resolve("foreign.lance").toString();
      LanceDatasets.write(good, TestArrow.reader(allocator, 1, 5), allocator, false);
      LanceDatasets.write(foreign, TestArrow.reader(allocator, 1, 5), allocator, false);
      Files.createSymbolicLink(data.resolve("link.lance"), Path.of(foreign));
      FileRegistry store = new FileRegistry(dir.resolve("registry.json"));
      Map<String, String> hostile =
          Map.of(
              "lake.h.other_dir",
              foreign,
              "lake.h.missing",
              outside.resolve("missing.lance").toString(),
              "lake.h.dotdot",
              data + "/../outside/foreign.lance",
              "lake.h.symlink",
              data.resolve("link.lance").toString(),
              "lake.h.etc",
              "/etc",
              "lake.h.bucket",
              "s3://another-bucket/t.lance",
              "lake.h.relative",
              "outside/foreign.lance");
      hostile.forEach(
          (name, location) -> LanceFormat.register(store, TableRef.parse(name), location));
      LanceFormat.register(store, TableRef.parse("lake.h.good"), good);
      CatalogPlugin lake =
          TableFormats.of(List.of(new LanceFormat()))
              .open(
                  TestFormatContext.local(
                      store, allocator, List.of(DataLocations.parse(data.toString(), true))))
              .get(0);
      for (String name : hostile.keySet()) {
        // WHEN resolved THEN refused naming the table only, whatever the location is or holds
        TableRef ref = TableRef.parse(name);
        assertThatThrownBy(() -> lake.resolver().resolve(ref))
            .as(name)
            .isInstanceOfSatisfying(
                LakeException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
            .hasMessage(DataLocations.outside(ref).getMessage())
            .hasMessageNotContaining("outside/")
            .hasMessageNotContaining("another-bucket");
        // AND a snapshot sealed for it elsewhere (a forged or older ticket) is refused by the
        // reader
        LanceSnapshot sealed = new LanceSnapshot(hostile.get(name), "inc", 1);
        assertThatThrownBy(() -> lake.readers().get(0).schema(ref, sealed))
            .as(name)
            .hasMessage(DataLocations.outside(ref).getMessage());
      }
      // AND another tenant's fresh read of a good table succeeds
      TableRef ok = TableRef.parse("lake.h.good");
      Snapshot s = lake.resolver().resolve(ok);
      long rows = 0;
      for (ArrowReader r : lake.readers().get(0).scan(ok, s, ScanRequest.all(1024), allocator)) {
        try (r) {
          while (r.loadNextBatch()) {
            rows += r.getVectorSchemaRoot().getRowCount();
          }
        }
      }
      assertThat(rows).isEqualTo(5);
      lake.owner().orElseThrow().close();
    }
  }
}
