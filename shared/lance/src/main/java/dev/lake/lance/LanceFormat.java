package dev.lake.lance;

import static dev.lake.core.TableFormats.number;
import static dev.lake.core.TableFormats.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.FormatContext;
import dev.lake.core.LakeCatalog;
import dev.lake.core.LakeException;
import dev.lake.core.RegisteredTables;
import dev.lake.core.Registry;
import dev.lake.core.TableFormat;
import dev.lake.core.TableRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Lance table format: lake's own registered tables ({@code lake.<namespace>.<table>}), sealed
 * as tag {@code lance} with the dataset location, registry incarnation and Lance version.
 * Registered in {@code META-INF/services/dev.lake.core.TableFormat}. Always served: catalog {@code
 * lake} hands it the registry entries tagged {@code lance} ({@link #openRegistered}), and it
 * reaches {@code s3://} datasets with the deployment's object-store access.
 */
public final class LanceFormat implements TableFormat<LanceSnapshot> {
  /** The codec tag inside sealed envelopes. */
  public static final String TAG = "lance";

  /** Most fragments one sealed split may name. */
  static final int MAX_SPLIT_FRAGMENTS = 100_000;

  @Override
  public String tag() {
    return TAG;
  }

  @Override
  public Class<LanceSnapshot> snapshotType() {
    return LanceSnapshot.class;
  }

  @Override
  public void encode(LanceSnapshot snapshot, ObjectNode node) {
    node.put("location", snapshot.location());
    node.put("incarnation", snapshot.incarnation());
    node.put("version", snapshot.version());
    // only splits carry fragments, so whole-version envelopes (and ids derived from them) are
    // unchanged
    if (snapshot.restricted()) {
      var array = node.putArray("fragments");
      snapshot.fragments().forEach(array::add);
    }
  }

  @Override
  public LanceSnapshot decode(JsonNode node) {
    List<Integer> fragments = new ArrayList<>();
    JsonNode array = node.path("fragments");
    if (!array.isMissingNode()) {
      if (!array.isArray() || array.isEmpty() || array.size() > MAX_SPLIT_FRAGMENTS) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A Lance split names no fragments");
      }
      for (JsonNode id : array) {
        if (!id.canConvertToInt() || id.asInt() < 0) {
          throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A Lance fragment id is invalid");
        }
        fragments.add(id.asInt());
      }
    }
    try {
      return new LanceSnapshot(
          text(node, "location"), text(node, "incarnation"), number(node, "version"), fragments);
    } catch (IllegalArgumentException e) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A Lance snapshot is invalid", e);
    }
  }

  /**
   * A Lance table is registered by its dataset location alone (a path or {@code s3://} URI); it
   * takes no options.
   */
  @Override
  public void checkEntry(String location, Map<String, String> options) {
    if (location.isBlank()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A Lance table needs a dataset location");
    }
    if (!options.isEmpty()) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Lance tables take no options: " + new java.util.TreeSet<>(options.keySet()));
    }
  }

  /**
   * A Lance table's location must open as a Lance dataset (its latest version is read): a Parquet
   * file, a directory without {@code _versions} or an unreachable bucket is refused naming the
   * location, with the command that turns files into a Lance table.
   */
  @Override
  public void checkOpens(
      String location,
      Map<String, String> options,
      dev.lake.core.StorageAccess storage,
      BufferAllocator allocator) {
    java.util.Optional<java.nio.file.Path> local = LanceTableReader.versionsDir(location);
    String importHint =
        "; bin/lake table import NAME FILE turns Parquet, CSV, JSON or Arrow files into a Lance"
            + " table";
    if (local.isPresent() && java.nio.file.Files.isRegularFile(local.get().getParent())) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          location + " is a file, not a Lance dataset (a directory with _versions)" + importHint);
    }
    try {
      LanceDatasets.latestVersion(location, allocator, LanceStorage.options(storage));
    } catch (RuntimeException e) {
      String cause = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          location
              + " does not open as a Lance dataset ("
              + cause.lines().findFirst().orElse(cause)
              + ")"
              + importHint,
          e);
    }
  }

  /** Registers {@code ref} as the Lance dataset at {@code location}. */
  public static Registry.Entry register(Registry registry, TableRef ref, String location) {
    return registry.register(ref, TAG, location, Map.of());
  }

  /**
   * Lance's share of catalog {@code lake}, with the deployment's object-store access, confined to
   * its {@link DataLocations} (required: a process without them fails to start).
   */
  @Override
  public Optional<RegisteredTables> openRegistered(FormatContext context) {
    DataLocations locations =
        context
            .findSettings(DataLocations.class)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no data locations configured: set " + DataLocations.FLAG));
    return Optional.of(
        registered(
            context.allocator(), LanceStorage.options(context.storage()), Optional.of(locations)));
  }

  private static RegisteredTables registered(
      BufferAllocator allocator,
      Map<String, String> storageOptions,
      Optional<DataLocations> locations) {
    LanceTableReader reader = new LanceTableReader(allocator, storageOptions, locations);
    return new RegisteredTables(
        new LanceEntryResolver(allocator, storageOptions, locations), reader, Optional.of(reader));
  }

  /**
   * Catalog {@code lake} serving Lance only, over local datasets anywhere (unconfined: tests,
   * benchmarks, embedders that own their files).
   */
  public static CatalogPlugin catalog(
      Registry registry, BufferAllocator allocator, Duration freshness) {
    return catalog(registry, allocator, freshness, Map.of());
  }

  /**
   * Catalog {@code lake} serving Lance only: Lance datasets named by {@code registry}, resolutions
   * cached for {@code freshness}, {@code s3://} datasets reached with {@code storageOptions} (see
   * {@link LanceStorage}); the reader's dataset handles are closed with the plugin. Unconfined (no
   * {@link DataLocations}): for tests, benchmarks and embedders.
   */
  public static CatalogPlugin catalog(
      Registry registry,
      BufferAllocator allocator,
      Duration freshness,
      Map<String, String> storageOptions) {
    return LakeCatalog.plugin(
        registry, freshness, Map.of(TAG, registered(allocator, storageOptions, Optional.empty())));
  }
}
