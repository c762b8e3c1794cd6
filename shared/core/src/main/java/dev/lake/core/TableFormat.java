package dev.lake.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table format plugin (Lance, Iceberg, ...). The format's own module owns its {@link Snapshot}
 * type and that snapshot's encoding inside sealed envelopes (tickets, job envelopes) under a short,
 * stable tag; core knows formats only through this interface. A format registers itself with one
 * line in its module's {@code META-INF/services/dev.lake.core.TableFormat}; {@link
 * TableFormats#installed()} finds it. The format also builds its own catalog ({@link #open}: its
 * {@link TableResolver} and {@link TableReader}) from what the process hands it, so the engine and
 * front door serve it without naming it (see docs/architecture.md, "How to add a table format").
 *
 * @param <S> the format's snapshot record
 */
public interface TableFormat<S extends Snapshot> {
  /** The codec tag written into sealed envelopes: unique, stable across releases. */
  String tag();

  /** The snapshot record this format owns. */
  Class<S> snapshotType();

  /** Writes the snapshot's fields (not the tag) into {@code node}. */
  void encode(S snapshot, ObjectNode node);

  /**
   * Reads a snapshot written by {@link #encode}; a missing or malformed field fails closed with
   * {@link ErrorCode#TICKET_INVALID} (see {@link TableFormats#text} and {@link
   * TableFormats#number}).
   */
  S decode(JsonNode node);

  /**
   * Builds this format's own catalog (a catalog name other than {@code lake}) for a process from
   * {@code context}, or returns empty when the deployment does not configure this format (e.g. no
   * Iceberg REST catalog given) or the format has none (the default). Called once per process by
   * the composition root; the returned plugin's owner is closed with the process. Bad settings fail
   * here, before the process serves anything.
   */
  default Optional<CatalogPlugin> open(FormatContext context) {
    return Optional.empty();
  }

  /**
   * This format's share of catalog {@code lake} (the tables registered in lake's registry under
   * {@link #tag()}), or empty when the format serves no registered tables (the default; e.g.
   * Iceberg, whose tables live in an external catalog). {@link TableFormats#open} builds the one
   * {@code lake} catalog over every format that returns one, dispatching each entry by its tag.
   * Called once per process, like {@link #open}.
   */
  default Optional<RegisteredTables> openRegistered(FormatContext context) {
    return Optional.empty();
  }

  /**
   * A fresh instance of this format's command-line options (see {@link FormatOptions}), or empty
   * when the format has none (the default). Called once per command line built.
   */
  default Optional<FormatOptions> newOptions() {
    return Optional.empty();
  }

  /**
   * The grants that let a principal read every table {@code settings} (a process's format settings,
   * as {@link FormatContext#settings}) expose through this format's own catalog, e.g. an allowlist;
   * local mode grants them to its demo principal. None by default.
   */
  default List<Grant> grantsToRead(List<Object> settings) {
    return List.of();
  }

  /**
   * Checks the location and options of a table about to be registered in lake's registry as this
   * format, throwing {@link ErrorCode#INVALID_ARGUMENT} that names the problem. Formats whose
   * tables live elsewhere (an external catalog) keep this default, which refuses every
   * registration.
   */
  default void checkEntry(String location, Map<String, String> options) {
    throw new LakeException(
        ErrorCode.INVALID_ARGUMENT,
        "Tables of format '" + tag() + "' are not registered in lake's registry");
  }

  /**
   * Checks that {@code location} opens as a table of this format, reaching object stores with
   * {@code storage} (the registering process's settings), throwing {@link
   * ErrorCode#INVALID_ARGUMENT} that names the location and what would work. Called by {@code
   * bin/lake table register} after {@link #checkEntry}, so that a table which can never be read is
   * refused when it is registered instead of failing every query. Nothing to check by default.
   */
  default void checkOpens(
      String location,
      Map<String, String> options,
      StorageAccess storage,
      org.apache.arrow.memory.BufferAllocator allocator) {}
}
