package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.testing.MutableClock;
import dev.lake.core.testing.TestArrow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latest version of a registered Lance table: a local dataset is opened again only when its
 * {@code _versions} folder changed, and every commit is seen at the next resolution.
 */
class LanceEntryResolverTest {
  private static final TableRef REF = TableRef.parse("lake.tpch.nation");

  private final BufferAllocator allocator = new RootAllocator();
  private final AtomicInteger opens = new AtomicInteger();

  @TempDir Path dir;

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void resolve_opensTheDatasetOnce_whileItsVersionsFolderIsUnchanged() throws IOException {
    // GIVEN a local dataset last changed an hour ago
    String location = dataset();
    settle(location);
    LanceEntryResolver resolver = resolver(Clock.systemUTC());
    // WHEN it is resolved three times
    for (int i = 0; i < 3; i++) {
      assertThat(version(resolver, location)).isEqualTo(1);
    }
    // THEN the dataset was opened once; the other resolutions only looked at the folder
    assertThat(opens).hasValue(1);
  }

  @Test
  void resolve_seesACommittedVersion_atTheNextResolution() throws IOException {
    // GIVEN a settled dataset whose version 1 is kept
    String location = dataset();
    settle(location);
    LanceEntryResolver resolver = resolver(Clock.systemUTC());
    assertThat(version(resolver, location)).isEqualTo(1);
    // WHEN a new version is committed
    LanceDatasets.write(location, TestArrow.reader(allocator, 1, 3), allocator, true);
    // THEN the next resolution opens the dataset and pins the new version
    assertThat(version(resolver, location)).isEqualTo(2);
    assertThat(opens).hasValue(2);
  }

  @Test
  void resolve_opensTheDatasetEveryTime_whileItsFolderChangedWithinTheSettlingTime()
      throws IOException {
    // GIVEN a dataset whose folder changed at the clock's present (a commit in the same timestamp
    // tick would not show)
    String location = dataset();
    MutableClock clock =
        new MutableClock(
            Files.getLastModifiedTime(Path.of(location).resolve("_versions")).toInstant());
    LanceEntryResolver resolver = resolver(clock);
    // WHEN it is resolved twice at once
    version(resolver, location);
    version(resolver, location);
    // THEN both resolutions opened it
    assertThat(opens).hasValue(2);
    // AND once the folder has settled, its version is kept after one more open
    clock.advance(LanceEntryResolver.SETTLED.plusSeconds(1));
    version(resolver, location);
    version(resolver, location);
    assertThat(opens).hasValue(3);
  }

  @Test
  void resolve_opensARemoteDatasetEveryTime() {
    // GIVEN a dataset on an object store (no folder to look at)
    LanceEntryResolver resolver =
        new LanceEntryResolver(
            location -> {
              opens.incrementAndGet();
              return 7;
            },
            Clock.systemUTC(),
            Optional.empty());
    // WHEN it is resolved twice
    version(resolver, "s3://bucket/nation.lance");
    // THEN each resolution asked the store
    assertThat(version(resolver, "s3://bucket/nation.lance")).isEqualTo(7);
    assertThat(opens).hasValue(2);
  }

  private LanceEntryResolver resolver(Clock clock) {
    ToLongFunction<String> counting =
        location -> {
          opens.incrementAndGet();
          return LanceDatasets.latestVersion(location, allocator);
        };
    return new LanceEntryResolver(counting, clock, Optional.empty());
  }

  private String dataset() {
    String location = dir.resolve("nation.lance").toString();
    LanceDatasets.write(location, TestArrow.reader(allocator, 1, 5), allocator, false);
    return location;
  }

  /** Makes the dataset's {@code _versions} folder look last changed an hour ago. */
  private static void settle(String location) throws IOException {
    Files.setLastModifiedTime(
        Path.of(location).resolve("_versions"),
        FileTime.from(Instant.now().minus(Duration.ofHours(1))));
  }

  private static long version(LanceEntryResolver resolver, String location) {
    Registry.Entry entry = new Registry.Entry(REF, LanceFormat.TAG, location, Map.of(), "inc-1", 1);
    return ((LanceSnapshot) resolver.resolve(entry)).version();
  }
}
