package dev.lake.iceberg;

import static dev.lake.core.TableFormats.number;
import static dev.lake.core.TableFormats.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.TableFormat;

/**
 * The Iceberg table format: tables of an external Iceberg REST catalog, sealed as tag {@code
 * iceberg} with the catalog name, table UUID, snapshot id and metadata location. Registered in
 * {@code META-INF/services/dev.lake.core.TableFormat}.
 */
public final class IcebergFormat implements TableFormat<IcebergSnapshot> {
  /** The codec tag inside sealed envelopes. */
  public static final String TAG = "iceberg";

  @Override
  public String tag() {
    return TAG;
  }

  @Override
  public Class<IcebergSnapshot> snapshotType() {
    return IcebergSnapshot.class;
  }

  @Override
  public void encode(IcebergSnapshot snapshot, ObjectNode node) {
    node.put("catalogName", snapshot.catalogName());
    node.put("tableUuid", snapshot.tableUuid());
    node.put("snapshotId", snapshot.snapshotId());
    node.put("metadataLocation", snapshot.metadataLocation());
  }

  @Override
  public IcebergSnapshot decode(JsonNode node) {
    return new IcebergSnapshot(
        text(node, "catalogName"),
        text(node, "tableUuid"),
        number(node, "snapshotId"),
        text(node, "metadataLocation"));
  }
}
