package dev.lake.iceberg.demo;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A test class's Iceberg REST catalog (namespaces {@code t}, {@code table_}, {@code secret}, {@code
 * other}) and lake's federation over it, allowing {@code demo}, {@code t} and {@code other.listed}.
 */
record FederationFixture(
    IcebergTestTables tables, BufferAllocator allocator, IcebergFederation iceberg)
    implements AutoCloseable {
  FederationFixture {
    requireNonNull(tables, "tables is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(iceberg, "iceberg is null");
  }

  static FederationFixture start(Path dir) throws Exception {
    IcebergTestTables tables = IcebergTestTables.start(dir, "t", "table_", "secret", "other");
    BufferAllocator allocator = new RootAllocator();
    IcebergFederation iceberg =
        IcebergFederation.connect(
            IcebergConfig.fromFlags(tables.fixture().uri().toString(), null, "demo,t,other.listed"),
            allocator);
    return new FederationFixture(tables, allocator, iceberg);
  }

  /** Every row of {@code ref} at {@code s}, read in batches of 4 over up to 3 streams. */
  List<List<Object>> scan(TableRef ref, Snapshot s) {
    return Rows.scan(
        iceberg.reader(), ref, s, new ScanRequest(List.of(), List.of(), 4, 3), allocator);
  }

  @Override
  public void close() throws Exception {
    iceberg.close();
    allocator.close();
    tables.close();
  }
}
