package dev.lake.iceberg.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;

/**
 * Writes Parquet data and delete files for a table with Iceberg's own generic writers (through the
 * table's FileIO, so local paths and s3:// both work). The caller commits them.
 */
public final class TableFiles {
  private TableFiles() {}

  /** A data file holding {@code rows}, in {@code partition} (null for an unpartitioned table). */
  public static DataFile writeData(Table table, StructLike partition, List<Record> rows) {
    GenericAppenderFactory factory = new GenericAppenderFactory(table.schema(), table.spec());
    DataWriter<Record> writer =
        factory.newDataWriter(
            output(table, table.spec(), partition), FileFormat.PARQUET, partition);
    try (writer) {
      for (Record r : rows) {
        writer.write(r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  /** A position-delete file deleting rows {@code positions} (0-based) of {@code dataFile}. */
  public static DeleteFile writePositionDeletes(Table table, DataFile dataFile, long... positions) {
    GenericAppenderFactory factory =
        new GenericAppenderFactory(table.schema(), table.spec(), null, null, null);
    PositionDeleteWriter<Record> writer =
        factory.newPosDeleteWriter(
            output(table, table.spec(), dataFile.partition()),
            FileFormat.PARQUET,
            dataFile.partition());
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long p : positions) {
        writer.write(delete.set(dataFile.location(), p, null));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /** An equality-delete file deleting every row whose {@code deleteSchema} columns equal a key. */
  public static DeleteFile writeEqualityDeletes(
      Table table, Schema deleteSchema, StructLike partition, List<Record> keys) {
    int[] ids = deleteSchema.columns().stream().mapToInt(f -> f.fieldId()).toArray();
    GenericAppenderFactory factory =
        new GenericAppenderFactory(table.schema(), table.spec(), ids, deleteSchema, null);
    EqualityDeleteWriter<Record> writer =
        factory.newEqDeleteWriter(
            output(table, table.spec(), partition), FileFormat.PARQUET, partition);
    try (writer) {
      for (Record k : keys) {
        writer.write(k);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  private static EncryptedOutputFile output(Table table, PartitionSpec spec, StructLike partition) {
    String name = UUID.randomUUID() + ".parquet";
    String location =
        partition == null || spec.isUnpartitioned()
            ? table.locationProvider().newDataLocation(name)
            : table.locationProvider().newDataLocation(spec, partition, name);
    return EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location));
  }
}
