package dev.lake.iceberg;

import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.metrics.LoggingMetricsReporter;
import org.apache.iceberg.metrics.MetricsReporter;

/**
 * A table loaded from the catalog as lake reads it: its metadata file must lie under the
 * deployment's {@link DataLocations} (checked once, here), and every file a scan, the generic
 * reader or the data-file cache reads goes through a {@link ConfinedFileIO}. Scans are planned
 * here, from the manifests (a catalog's server-side planning would hand back files lake never saw
 * in a manifest it checked); nothing can be committed.
 */
final class ConfinedTable {
  private ConfinedTable() {}

  /**
   * {@code table} confined to {@code locations}.
   *
   * @throws LakeException PERMISSION_DENIED naming {@code ref} if its metadata lies outside
   */
  static Table of(Table table, TableRef ref, DataLocations locations) {
    if (!(table instanceof HasTableOperations loaded)) {
      throw new LakeException(
          ErrorCode.INTERNAL, "The Iceberg catalog returned table " + ref + " without metadata");
    }
    TableOperations ops = loaded.operations();
    String metadata = ops.current().metadataFileLocation();
    if (metadata != null) {
      locations.checkRead(ref, metadata);
    }
    MetricsReporter reporter =
        table instanceof BaseTable base ? base.reporter() : LoggingMetricsReporter.instance();
    return new BaseTable(
        new Operations(ops, new ConfinedFileIO(ops.io(), ref, locations)), table.name(), reporter);
  }

  /** The loaded table's operations with the confined FileIO; read-only. */
  private record Operations(TableOperations ops, FileIO io) implements TableOperations {
    @Override
    public TableMetadata current() {
      return ops.current();
    }

    @Override
    public TableMetadata refresh() {
      return ops.refresh();
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      throw new LakeException(ErrorCode.INTERNAL, "lake never commits to an Iceberg table");
    }

    @Override
    public EncryptionManager encryption() {
      return ops.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return ops.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return ops.locationProvider();
    }
  }
}
