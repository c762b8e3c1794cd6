package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A statement that passed read-only admission: its text, its kind, and every table it names (fully
 * qualified). Only {@link SqlAdmission} creates these from client text.
 */
public record AdmittedQuery(String sql, Kind kind, SortedSet<TableRef> tables) {
  /** The statement kinds lake runs. */
  public enum Kind {
    SELECT,
    EXPLAIN
  }

  public AdmittedQuery {
    requireNonNull(sql, "sql is null");
    requireNonNull(kind, "kind is null");
    tables =
        java.util.Collections.unmodifiableSortedSet(
            new TreeSet<>(requireNonNull(tables, "tables is null")));
  }

  public static AdmittedQuery of(String sql, Kind kind, List<TableRef> tables) {
    return new AdmittedQuery(sql, kind, new TreeSet<>(tables));
  }
}
