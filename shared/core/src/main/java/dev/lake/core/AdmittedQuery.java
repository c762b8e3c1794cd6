package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A statement that passed read-only admission: its text, its kind, every table it names (fully
 * qualified) and what the admission parse learned about its result columns' origins. Only {@link
 * SqlAdmission} creates these from client text.
 *
 * <p>Equality is by text, kind and tables: the origins are a pure function of the text, so a query
 * rebuilt without them (a durable job's envelope) is the same cache key as the admitted one.
 */
public record AdmittedQuery(
    String sql, Kind kind, SortedSet<TableRef> tables, ColumnOrigins origins) {
  /** The statement kinds lake runs. */
  public enum Kind {
    SELECT,
    EXPLAIN
  }

  public AdmittedQuery {
    requireNonNull(sql, "sql is null");
    requireNonNull(kind, "kind is null");
    tables =
        Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(tables, "tables is null")));
    requireNonNull(origins, "origins is null");
  }

  /** A statement whose columns' origins are not known ({@link ColumnOrigins#NONE}). */
  public AdmittedQuery(String sql, Kind kind, SortedSet<TableRef> tables) {
    this(sql, kind, tables, ColumnOrigins.NONE);
  }

  public static AdmittedQuery of(String sql, Kind kind, List<TableRef> tables) {
    return new AdmittedQuery(sql, kind, new TreeSet<>(tables));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AdmittedQuery q
        && sql.equals(q.sql)
        && kind == q.kind
        && tables.equals(q.tables);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sql, kind, tables);
  }
}
