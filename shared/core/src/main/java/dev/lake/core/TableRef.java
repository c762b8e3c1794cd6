package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.regex.Pattern;

/**
 * A fully qualified table name: {@code catalog.namespace.table}. Parts are stored lower-case as
 * DuckDB folds unquoted identifiers. A namespace may itself contain dots (Iceberg nested
 * namespaces, written {@code iceberg."a.b".t} in SQL).
 */
public record TableRef(String catalog, String namespace, String table)
    implements Comparable<TableRef> {
  /**
   * lake's own catalog: the tables of lake's registry ({@link Registry}, served by {@link
   * LakeCatalog}). Other catalog names belong to the table formats that serve them.
   */
  public static final String LAKE = "lake";

  private static final Pattern PART = Pattern.compile("[a-z0-9_][a-z0-9_.$-]{0,127}");
  private static final Comparator<TableRef> ORDER =
      Comparator.comparing(TableRef::catalog)
          .thenComparing(TableRef::namespace)
          .thenComparing(TableRef::table);

  public TableRef {
    catalog = checkPart(catalog, "catalog");
    namespace = checkPart(namespace, "namespace");
    table = checkPart(table, "table");
    if (catalog.contains(".") || table.contains(".")) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT, "Only the namespace of a table name may contain dots");
    }
  }

  private static String checkPart(String value, String name) {
    requireNonNull(value, name + " is null");
    String lower = value.toLowerCase(java.util.Locale.ROOT);
    if (!PART.matcher(lower).matches()) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Invalid " + name + " name '" + value + "': use letters, digits and _ (at most 128)");
    }
    return lower;
  }

  /**
   * Parses {@code catalog.namespace.table}; a namespace with dots is accepted in double quotes
   * ({@code iceberg."a.b".t}).
   */
  public static TableRef parse(String text) {
    requireNonNull(text, "text is null");
    String s = text.trim();
    int first = s.indexOf('.');
    int last = s.lastIndexOf('.');
    if (first < 0 || first == last) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Table name '" + text + "' must be fully qualified as catalog.namespace.table");
    }
    String namespace = s.substring(first + 1, last);
    if (namespace.length() >= 2 && namespace.startsWith("\"") && namespace.endsWith("\"")) {
      namespace = namespace.substring(1, namespace.length() - 1);
    } else if (namespace.contains(".")) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Table name '" + text + "': quote a nested namespace, e.g. iceberg.\"a.b\".t");
    }
    return new TableRef(s.substring(0, first), namespace, s.substring(last + 1));
  }

  /** The namespace as its catalog sees it: {@code catalog.namespace}. */
  public String qualifiedNamespace() {
    return catalog + "." + namespace;
  }

  @Override
  public int compareTo(TableRef other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    String ns = namespace.contains(".") ? "\"" + namespace + "\"" : namespace;
    return catalog + "." + ns + "." + table;
  }
}
