package dev.lake.engine;

import dev.lake.core.SqlQuoting;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How {@link SnapshotCopier} copies a snapshot a {@link dev.lake.core.FileScanSource} reads from
 * files: DuckDB alone runs {@code CREATE TABLE ... AS SELECT * FROM (<the reader's own SELECT>)},
 * the very statement an uncached query inlines (so the copy holds exactly the rows and types that
 * query reads: deletes, field-id mapping, partition constants and promotions are the reader's
 * rendering), without an Arrow round trip. The copy's size is measured first, in the Arrow bytes a
 * stream of the same rows would hold (what the cache counts for every copy), by one aggregate over
 * the same files: fixed-width columns from the row count, variable-width ones from their lengths.
 */
final class FileScanCopy {
  private FileScanCopy() {}

  /**
   * How to measure {@code columns} of {@code schema}, or empty if a column's width is not known
   * from its type (nested types: such copies go through Arrow streams instead).
   */
  static Optional<Measure> measure(Schema schema, List<String> columns) {
    long fixed = 0;
    List<String> variable = new ArrayList<>();
    for (String c : columns) {
      Field f = field(schema, c);
      if (f == null) {
        return Optional.empty();
      }
      ArrowType t = f.getType();
      if (t instanceof ArrowType.Utf8 || t instanceof ArrowType.LargeUtf8) {
        variable.add("strlen(" + SqlQuoting.identifier(f.getName()) + ")");
        fixed += 4; // offsets
      } else if (t instanceof ArrowType.Binary || t instanceof ArrowType.LargeBinary) {
        variable.add("octet_length(" + SqlQuoting.identifier(f.getName()) + ")");
        fixed += 4;
      } else {
        int width = width(t);
        if (width <= 0) {
          return Optional.empty();
        }
        fixed += width;
      }
    }
    return Optional.of(new Measure(fixed, variable));
  }

  /**
   * What measuring a scan adds up.
   *
   * @param bytesPerRow fixed-width bytes per row (variable-width columns count their offsets)
   * @param lengths one length expression per variable-width column
   */
  record Measure(long bytesPerRow, List<String> lengths) {
    Measure {
      lengths = List.copyOf(lengths);
    }

    /** One row: the row count, then each length expression's sum. */
    String sql(String scanSql) {
      StringBuilder sql = new StringBuilder("SELECT count(*)");
      for (String v : lengths) {
        sql.append(", coalesce(sum(").append(v).append("), 0)");
      }
      return sql.append(" FROM (").append(scanSql).append(") AS lake_measured").toString();
    }

    /** The Arrow bytes of {@code scanSql}'s rows, run on {@code st}; saturates at the maximum. */
    long bytes(Statement st, String scanSql) throws SQLException {
      try (ResultSet rs = st.executeQuery(sql(scanSql))) {
        if (!rs.next()) {
          return 0;
        }
        long total = multiply(rs.getLong(1), bytesPerRow);
        for (int i = 0; i < lengths.size(); i++) {
          total = add(total, rs.getLong(2 + i));
        }
        return total;
      }
    }
  }

  /** The statement that makes the copy {@code name} (qualified) of {@code scanSql}'s rows. */
  static String create(String name, String scanSql) {
    return "CREATE TABLE " + name + " AS SELECT * FROM (" + scanSql + ") AS lake_copied";
  }

  private static Field field(Schema schema, String column) {
    for (Field f : schema.getFields()) {
      if (f.getName().equals(column)) {
        return f;
      }
    }
    return null;
  }

  /** Bytes per value of a fixed-width Arrow type, or 0 if it has no fixed width. */
  static int width(ArrowType t) {
    if (t instanceof ArrowType.Int i) {
      return i.getBitWidth() / 8;
    }
    if (t instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.HALF
          ? 2
          : fp.getPrecision() == FloatingPointPrecision.SINGLE ? 4 : 8;
    }
    if (t instanceof ArrowType.Decimal d) {
      return d.getBitWidth() / 8;
    }
    if (t instanceof ArrowType.Date d) {
      return d.getUnit() == DateUnit.DAY ? 4 : 8;
    }
    if (t instanceof ArrowType.Time tm) {
      return tm.getBitWidth() / 8;
    }
    if (t instanceof ArrowType.Timestamp || t instanceof ArrowType.Duration) {
      return 8;
    }
    if (t instanceof ArrowType.Bool) {
      return 1; // a bit in Arrow; a byte here errs on the large side
    }
    if (t instanceof ArrowType.FixedSizeBinary b) {
      return b.getByteWidth();
    }
    return 0;
  }

  private static long multiply(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
  }

  private static long add(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }
}
