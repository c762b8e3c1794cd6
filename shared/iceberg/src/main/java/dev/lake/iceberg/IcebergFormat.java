package dev.lake.iceberg;

import static dev.lake.core.TableFormats.number;
import static dev.lake.core.TableFormats.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.DataLocations;
import dev.lake.core.FormatContext;
import dev.lake.core.FormatOptions;
import dev.lake.core.Grant;
import dev.lake.core.TableFormat;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Iceberg table format: tables of an external Iceberg REST catalog, sealed as tag {@code
 * iceberg} with the catalog name, table UUID, snapshot id and metadata location. Registered in
 * {@code META-INF/services/dev.lake.core.TableFormat}. Served only when the deployment configures a
 * REST catalog (an {@link IcebergConfig} among the process's format settings; {@link
 * IcebergFilesConfig} says how data files reach DuckDB, at its defaults when absent).
 */
public final class IcebergFormat implements TableFormat<IcebergSnapshot> {
  /** The codec tag inside sealed envelopes. */
  public static final String TAG = "iceberg";

  /**
   * The catalog name under which the REST federation's tables are served ({@code
   * iceberg.<namespace>.<table>}); owned by this format, core names only its own {@code lake}.
   */
  public static final String CATALOG = "iceberg";

  @Override
  public String tag() {
    return TAG;
  }

  @Override
  public Class<IcebergSnapshot> snapshotType() {
    return IcebergSnapshot.class;
  }

  /** Most data files one sealed split may name. */
  static final int MAX_SPLIT_FILES = 100_000;

  @Override
  public void encode(IcebergSnapshot snapshot, ObjectNode node) {
    node.put("catalogName", snapshot.catalogName());
    node.put("tableUuid", snapshot.tableUuid());
    node.put("snapshotId", snapshot.snapshotId());
    node.put("metadataLocation", snapshot.metadataLocation());
    // only splits carry files, so whole-snapshot envelopes (and ids derived from them) are
    // unchanged
    if (snapshot.restricted()) {
      var array = node.putArray("files");
      snapshot.files().forEach(array::add);
    }
  }

  @Override
  public IcebergSnapshot decode(JsonNode node) {
    java.util.List<String> files = new java.util.ArrayList<>();
    node.path("files").forEach(f -> files.add(f.asText()));
    if (node.has("files") && (files.isEmpty() || files.size() > MAX_SPLIT_FILES)) {
      throw new dev.lake.core.LakeException(
          dev.lake.core.ErrorCode.INVALID_ARGUMENT, "An Iceberg split names no data files");
    }
    try {
      return new IcebergSnapshot(
          text(node, "catalogName"),
          text(node, "tableUuid"),
          number(node, "snapshotId"),
          text(node, "metadataLocation"),
          files);
    } catch (IllegalArgumentException e) {
      throw new dev.lake.core.LakeException(
          dev.lake.core.ErrorCode.INVALID_ARGUMENT, "An Iceberg snapshot is invalid", e);
    }
  }

  /**
   * The {@code iceberg} catalog when a REST catalog is configured, confined to the process's {@link
   * DataLocations} (required then: a process without them fails to start).
   */
  @Override
  public Optional<CatalogPlugin> open(FormatContext context) {
    return context
        .findSettings(IcebergConfig.class)
        .map(
            config ->
                catalog(
                    IcebergStorage.under(config, context.storage()),
                    context
                        .findSettings(IcebergFilesConfig.class)
                        .orElse(IcebergFilesConfig.defaults()),
                    Optional.of(
                        context
                            .findSettings(DataLocations.class)
                            .orElseThrow(
                                () ->
                                    new IllegalArgumentException(
                                        "--iceberg-rest needs data locations: set "
                                            + DataLocations.FLAG))),
                    context.allocator()));
  }

  /** The {@code --iceberg-*} flags ({@code LAKE_ICEBERG_*}) of every lake process command. */
  @Override
  public Optional<FormatOptions> newOptions() {
    return Optional.of(new IcebergOptions());
  }

  /** The allowlist of the configured REST catalog, as grants (none when federation is off). */
  @Override
  public List<Grant> grantsToRead(List<Object> settings) {
    return settings.stream()
        .filter(IcebergConfig.class::isInstance)
        .map(IcebergConfig.class::cast)
        .findFirst()
        .map(IcebergOptions::grantsFor)
        .orElse(List.of());
  }

  /**
   * The {@code iceberg} catalog: tables of one external Iceberg REST catalog, read-only, its data
   * files handed to DuckDB as {@code files} says; connecting fails with {@code
   * EXTERNAL_UNAVAILABLE} when the catalog cannot be reached; its tables confined to {@code
   * locations} (empty = unconfined: tests, embedders). The plugin owns the connection.
   */
  public static CatalogPlugin catalog(
      IcebergConfig config,
      IcebergFilesConfig files,
      Optional<DataLocations> locations,
      BufferAllocator allocator) {
    IcebergFederation federation = IcebergFederation.connect(config, files, locations, allocator);
    return new CatalogPlugin(federation.resolver(), federation.reader(), Optional.of(federation));
  }
}
