package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Which result columns of an admitted statement are plain columns of one lake table, as the
 * admission parse saw them. Only the unambiguous shapes name a table: one base table in FROM, no
 * CTE or set operation, and a select list that is either a plain {@code *} or has one item per
 * result column, each item a bare column reference. Anything else (expressions, aggregates, joins,
 * subqueries) has no origin, which is what "where known" means; an origin is never guessed.
 *
 * @param table the statement's one base table; empty when the shape is not an unambiguous one
 * @param star whether the select list is a plain {@code *}
 * @param bare per select item (when not {@code star}) whether it is a bare column reference
 */
public record ColumnOrigins(Optional<TableRef> table, boolean star, List<Boolean> bare) {
  /** A statement whose columns have no known origin. */
  public static final ColumnOrigins NONE = new ColumnOrigins(Optional.empty(), false, List.of());

  public ColumnOrigins {
    requireNonNull(table, "table is null");
    bare = List.copyOf(requireNonNull(bare, "bare is null"));
  }

  /**
   * Per result column (by position, {@code columns} of them) its table, when the statement makes it
   * certain.
   */
  public List<Optional<TableRef>> forColumns(int columns) {
    if (table.isEmpty() || (!star && bare.size() != columns)) {
      return Collections.nCopies(columns, Optional.empty());
    }
    if (star) {
      return Collections.nCopies(columns, table);
    }
    List<Optional<TableRef>> out = new ArrayList<>(columns);
    for (boolean b : bare) {
      out.add(b ? table : Optional.empty());
    }
    return out;
  }
}
