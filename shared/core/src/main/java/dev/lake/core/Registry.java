package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * lake's own control-plane registry of tables: {@code lake.<namespace>.<table>} → the table's
 * format, its format-owned location and options, and an incarnation. Registration is a trusted
 * operator action, never SQL; the format checks what is registered ({@link Entry#fresh}).
 */
public interface Registry {
  /**
   * The format of entries written before entries named one: lake's registry then held Lance tables
   * only. Both stores read such entries as this format with no options.
   */
  String LEGACY_FORMAT = "lance";

  /**
   * Registers {@code ref} as a table of {@code format} at {@code location} with {@code options},
   * with a fresh incarnation; fails if it exists. An unknown format, or a location or options the
   * format refuses, fail with {@code INVALID_ARGUMENT} before anything is written.
   */
  Entry register(TableRef ref, String format, String location, Map<String, String> options);

  /** Removes {@code ref}; returns whether it existed. */
  boolean unregister(TableRef ref);

  Optional<Entry> find(TableRef ref);

  List<Entry> list();

  /**
   * One registered table. A store reads entries of any format back (also of formats this process
   * does not have); the catalog serving {@code lake} refuses those it cannot read.
   *
   * @param format the tag of the {@link TableFormat} that owns {@code location} and {@code options}
   * @param location where the table is, in its format's terms (a path or {@code s3://} URI)
   * @param options format-owned settings of this table (none for Lance)
   */
  record Entry(
      TableRef ref,
      String format,
      String location,
      Map<String, String> options,
      String incarnation,
      long registeredAtMillis) {
    public Entry {
      requireNonNull(ref, "ref is null");
      requireNonNull(format, "format is null");
      requireNonNull(location, "location is null");
      options = Map.copyOf(requireNonNull(options, "options is null"));
      requireNonNull(incarnation, "incarnation is null");
      if (!ref.catalog().equals(TableRef.LAKE)) {
        throw new LakeException(
            ErrorCode.INVALID_ARGUMENT,
            "Only lake.<namespace>.<table> names can be registered: " + ref);
      }
      if (format.isBlank()) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A registered table needs a format");
      }
    }

    /**
     * A new entry with a fresh incarnation, after the installed format of {@code format} accepted
     * {@code location} and {@code options} ({@link TableFormats#checkEntry}); every store builds
     * what it registers through here.
     */
    public static Entry fresh(
        TableRef ref, String format, String location, Map<String, String> options) {
      requireNonNull(ref, "ref is null");
      TableFormats.installed().checkEntry(format, location, options);
      return new Entry(
          ref, format, location, options, UUID.randomUUID().toString(), System.currentTimeMillis());
    }
  }
}
