package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.testing.TestArrow;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes built before registry entries named their format read every entry as a Lance table at
 * its stored {@code location} ({@link Registry.Entry#legacyLocation}); Lance's entry resolver here
 * resolves the way theirs did (open the location, "registered but cannot be read" otherwise).
 */
class LegacyRegistryReadersTest {
  private static final TableRef REF = TableRef.parse("lake.tpch.nation");

  @Test
  void anotherFormatsTable_onALanceDataset_failsClosedForAProcessBuiltBeforeFormats(
      @TempDir Path dir) {
    try (RootAllocator allocator = new RootAllocator()) {
      // GIVEN a table of another format whose location is a readable Lance dataset
      String location = dir.resolve("nation.lance").toString();
      LanceDatasets.write(location, TestArrow.reader(allocator, 1, 5), allocator, false);
      Registry.Entry entry =
          new Registry.Entry(REF, "delta", location, Map.of("filter", "x"), "inc-1", 1);
      LanceEntryResolver lance = new LanceEntryResolver(allocator, Map.of(), Optional.empty());
      // WHEN a process built before formats reads what the stores write where it looks
      Registry.Entry asOldProcessesReadIt = legacyReading(entry.legacyLocation());
      // THEN it fails closed instead of serving the dataset as a plain Lance table
      assertThatThrownBy(() -> lance.resolve(asOldProcessesReadIt))
          .isInstanceOfSatisfying(
              LakeException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE))
          .hasMessage("Table lake.tpch.nation is registered but cannot be read");
      // AND the location itself is readable, so the failure comes from what was stored
      assertThat(lance.resolve(legacyReading(location))).isInstanceOf(LanceSnapshot.class);
    }
  }

  @Test
  void aLanceTableWithoutOptions_isStoredWhereProcessesBuiltBeforeFormatsReadIt() {
    // GIVEN a Lance table
    Registry.Entry entry =
        new Registry.Entry(REF, LanceFormat.TAG, "/d/nation.lance", Map.of(), "inc-1", 1);
    // THEN the stores write its own location where older processes read it
    assertThat(entry.legacyReadable()).isTrue();
    assertThat(entry.legacyLocation()).isEqualTo("/d/nation.lance");
  }

  /** The entry an old process builds from a stored location: Lance, no options. */
  private static Registry.Entry legacyReading(String storedLocation) {
    return new Registry.Entry(REF, Registry.LEGACY_FORMAT, storedLocation, Map.of(), "inc-1", 1);
  }
}
