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
   * Where a store writes, in place of the location, an entry that processes built before entries
   * named their format would misread (they read every entry as a {@link #LEGACY_FORMAT} table at
   * the location field). Followed by the entry's format tag. No Lance library opens it, so such an
   * old process fails closed ("registered but cannot be read") instead of reading another format's
   * table, or a table with options it would ignore, as a plain Lance dataset. The real location
   * goes to a field old processes do not read.
   */
  String UNREADABLE_BY_LEGACY = "lake-table-format://";

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
     * Whether processes built before entries named their format read this entry correctly: a {@link
     * #LEGACY_FORMAT} table without options. Stores write the location of such entries where those
     * processes read it, and {@link #legacyLocation} for every other entry.
     */
    public boolean legacyReadable() {
      return format.equals(LEGACY_FORMAT) && options.isEmpty();
    }

    /**
     * What a store writes in the field processes built before format tags read as the Lance
     * location: the location itself when {@link #legacyReadable}, otherwise {@link
     * #UNREADABLE_BY_LEGACY} and the format tag, which such a process fails to open.
     */
    public String legacyLocation() {
      return legacyReadable() ? location : UNREADABLE_BY_LEGACY + format;
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
