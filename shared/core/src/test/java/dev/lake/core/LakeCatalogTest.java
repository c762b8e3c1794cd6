package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.TestSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LakeCatalogTest {
  static final TableRef T = TableRef.parse("lake.ns.t");
  static final TableRef U = TableRef.parse("lake.ns.u");

  /** Core's test format's share of lake: the entry's location, version 1. */
  static final EntryResolver TEST =
      new EntryResolver() {
        @Override
        public Snapshot resolve(Registry.Entry entry) {
          return new TestSnapshot(entry.location(), 1);
        }

        @Override
        public boolean denotes(Registry.Entry entry, Snapshot sealed) {
          return sealed instanceof TestSnapshot s && s.location().equals(entry.location());
        }
      };

  /** A registry that counts its reads of single entries. */
  record CountingRegistry(Registry delegate, AtomicInteger finds) implements Registry {
    @Override
    public Entry register(TableRef ref, String format, String location, Map<String, String> o) {
      return delegate.register(ref, format, location, o);
    }

    @Override
    public boolean unregister(TableRef ref) {
      return delegate.unregister(ref);
    }

    @Override
    public Optional<Entry> find(TableRef ref) {
      finds.incrementAndGet();
      return delegate.find(ref);
    }

    @Override
    public List<Entry> list() {
      return delegate.list();
    }
  }

  @Test
  void resolve_dispatchesByTag_andCachesTheRegistryRead(@TempDir Path dir) {
    // GIVEN a test-format table and a lance table, and a catalog serving only the test format
    CountingRegistry registry =
        new CountingRegistry(new FileRegistry(dir.resolve("r.json")), new AtomicInteger());
    registry.register(T, "test", "/t", Map.of());
    LakeCatalog catalog = new LakeCatalog(registry, Duration.ofMinutes(1), Map.of("test", TEST));
    // WHEN the test table resolves twice
    Snapshot first = catalog.resolve(T);
    Snapshot second = catalog.resolve(T);
    // THEN its format resolved it, and the registry was read once
    assertThat(first).isEqualTo(new TestSnapshot("/t", 1)).isEqualTo(second);
    assertThat(registry.finds().get()).isEqualTo(1);
    assertThat(catalog.listTables()).containsExactly(T);
  }

  @Test
  void anEntryOfAFormatNotServed_isNotListed_isUnsupported_andItsSealedNameIsGone(
      @TempDir Path dir) {
    // GIVEN a test-format table sealed by a catalog serving that format
    Registry registry = new FileRegistry(dir.resolve("r.json"));
    registry.register(T, "test", "/t", Map.of());
    Snapshot sealed = new LakeCatalog(registry, Duration.ZERO, Map.of("test", TEST)).resolve(T);
    // WHEN a catalog serving only another format looks at it
    LakeCatalog lanceOnly = new LakeCatalog(registry, Duration.ZERO, Map.of("lance", TEST));
    // THEN it is not listed, a new resolution is UNSUPPORTED, and the sealed snapshot is gone
    assertThat(lanceOnly.listTables()).isEmpty();
    assertThatThrownBy(() -> lanceOnly.resolve(T))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED))
        .hasMessage(
            "Table lake.ns.t is registered as format 'test', which this server does not read");
    assertThatThrownBy(() -> lanceOnly.verify(T, sealed))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE));
    // AND a missing name is TABLE_NOT_FOUND
    assertThatThrownBy(() -> lanceOnly.resolve(U))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
  }

  @Test
  void verify_failsClosed_whenTheNameWasRegisteredAgain(@TempDir Path dir) {
    // GIVEN a sealed snapshot of a table that is then registered again elsewhere
    Registry registry = new FileRegistry(dir.resolve("r.json"));
    registry.register(T, "test", "/t", Map.of());
    LakeCatalog catalog = new LakeCatalog(registry, Duration.ofMinutes(1), Map.of("test", TEST));
    Snapshot sealed = catalog.resolve(T);
    catalog.verify(T, sealed);
    registry.unregister(T);
    registry.register(T, "test", "/t2", Map.of());
    // THEN it no longer verifies, and the next resolution reads the new entry (cache dropped)
    assertThatThrownBy(() -> catalog.verify(T, sealed))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
        .hasMessage(
            "version 1 of lake.ns.t is no longer available: the table was replaced or removed");
    assertThat(catalog.resolve(T)).isEqualTo(new TestSnapshot("/t2", 1));
  }
}
