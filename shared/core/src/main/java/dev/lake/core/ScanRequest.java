package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What the engine needs from one table scan: the columns (empty = all, in table order), an optional
 * conservative row filter the reader may apply (rows it drops must never match the query; the
 * engine re-applies all predicates), a batch size and a stream-count hint.
 *
 * @param filter a conjunction of simple predicates in a neutral form; readers ignore what they do
 *     not understand
 */
public record ScanRequest(
    List<String> columns, List<Predicate> filter, int batchSize, int parallelism) {
  public ScanRequest {
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    filter = List.copyOf(requireNonNull(filter, "filter is null"));
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1: " + parallelism);
    }
  }

  public static ScanRequest all(int batchSize) {
    return new ScanRequest(List.of(), List.of(), batchSize, 1);
  }

  /**
   * {@code column op literal}; the literal is a SQL literal text with its DuckDB type name, e.g.
   * {@code ("l_discount", ">=", "0.05", "DECIMAL(15,2)")}.
   */
  public record Predicate(String column, String op, String literal, Optional<String> type) {
    public Predicate {
      requireNonNull(column, "column is null");
      requireNonNull(op, "op is null");
      requireNonNull(literal, "literal is null");
      requireNonNull(type, "type is null");
      if (!List.of("=", "<>", "<", "<=", ">", ">=").contains(op)) {
        throw new IllegalArgumentException("unsupported operator: " + op);
      }
    }
  }
}
