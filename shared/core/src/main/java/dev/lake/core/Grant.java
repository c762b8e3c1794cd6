package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What a principal may read: every table directly in one namespace ({@code catalog.namespace}), or
 * one table ({@code catalog.namespace.table}). Parts follow {@link TableRef}'s rules (lower-cased,
 * letters, digits and {@code _}); a nested namespace is written in double quotes ({@code
 * iceberg."a.b"} or {@code iceberg."a.b".t}), so {@code iceberg.a.b} is always table {@code b} in
 * namespace {@code a} and never namespace {@code "a.b"}.
 */
public record Grant(String catalog, String namespace, Optional<String> table) {
  public Grant {
    requireNonNull(table, "table is null");
    // TableRef validates and lower-cases every part; a namespace grant borrows a placeholder table
    TableRef ref = new TableRef(catalog, namespace, table.orElse("_"));
    catalog = ref.catalog();
    namespace = ref.namespace();
    table = table.map(t -> ref.table());
  }

  /** A grant of every table directly in {@code catalog.namespace}. */
  public static Grant namespace(String catalog, String namespace) {
    return new Grant(catalog, namespace, Optional.empty());
  }

  /** A grant of exactly {@code ref}. */
  public static Grant table(TableRef ref) {
    requireNonNull(ref, "ref is null");
    return new Grant(ref.catalog(), ref.namespace(), Optional.of(ref.table()));
  }

  /**
   * Parses {@code catalog.namespace} or {@code catalog.namespace.table}, a nested namespace in
   * double quotes; throws INVALID_ARGUMENT naming the text otherwise.
   */
  public static Grant parse(String text) {
    requireNonNull(text, "text is null");
    String s = text.trim();
    int dot = s.indexOf('.');
    if (dot <= 0 || dot == s.length() - 1) {
      throw invalid(text, "write catalog.namespace or catalog.namespace.table");
    }
    String catalog = s.substring(0, dot);
    String rest = s.substring(dot + 1);
    String namespace;
    String after;
    if (rest.startsWith("\"")) {
      int close = rest.indexOf('"', 1);
      if (close < 0) {
        throw invalid(text, "the quoted namespace is not closed");
      }
      namespace = rest.substring(1, close);
      after = rest.substring(close + 1);
      if (!after.isEmpty() && !after.startsWith(".")) {
        throw invalid(text, "expected '.' after the quoted namespace");
      }
      after = after.isEmpty() ? null : after.substring(1);
    } else {
      int next = rest.indexOf('.');
      namespace = next < 0 ? rest : rest.substring(0, next);
      after = next < 0 ? null : rest.substring(next + 1);
    }
    if (after != null && (after.isEmpty() || after.contains(".") || after.contains("\""))) {
      throw invalid(text, "quote a nested namespace, e.g. iceberg.\"a.b\" or iceberg.\"a.b\".t");
    }
    try {
      return new Grant(catalog, namespace, Optional.ofNullable(after));
    } catch (LakeException e) {
      throw invalid(text, e.getMessage());
    }
  }

  /** Whether this grant allows reading {@code ref}. */
  public boolean covers(TableRef ref) {
    return catalog.equals(ref.catalog())
        && namespace.equals(ref.namespace())
        && table.map(t -> t.equals(ref.table())).orElse(true);
  }

  private static LakeException invalid(String text, String why) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "Invalid grant '" + text + "': " + why);
  }

  /** The canonical text, which {@link #parse} reads back to an equal grant. */
  @Override
  public String toString() {
    String ns = namespace.contains(".") ? "\"" + namespace + "\"" : namespace;
    return catalog + "." + ns + table.map(t -> "." + t).orElse("");
  }
}
