package dev.lake.client.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An aligned text table for people: column widths come from the header and the first {@value
 * #SAMPLE_ROWS} rows (later wider values simply widen their row), numbers align right, NULL prints
 * as {@code NULL}, and a last line counts the rows. Only the sample is buffered.
 */
final class TableWriter implements OutputWriter {
  static final int SAMPLE_ROWS = 1000;

  @Override
  public long write(ArrowReader reader, Output out) throws IOException {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    List<FieldVector> vectors = root.getFieldVectors();
    int columns = vectors.size();
    boolean[] right = new boolean[columns];
    int[] widths = new int[columns];
    List<String> header = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      ArrowType type = vectors.get(c).getField().getType();
      right[c] =
          type instanceof ArrowType.Int
              || type instanceof ArrowType.Decimal
              || type instanceof ArrowType.FloatingPoint;
      header.add(vectors.get(c).getName());
      widths[c] = header.get(c).length();
    }
    // not a PrintWriter: it would swallow the error of a closed pipe
    Writer w = new BufferedWriter(new OutputStreamWriter(out.stream(), StandardCharsets.UTF_8));
    List<String[]> sample = new ArrayList<>();
    long rows = 0;
    while (reader.loadNextBatch()) {
      for (int r = 0; r < root.getRowCount(); r++) {
        String[] cells = new String[columns];
        for (int c = 0; c < columns; c++) {
          String text = Values.text(vectors.get(c), r);
          cells[c] = text == null ? "NULL" : text.replace('\n', ' ');
        }
        rows++;
        if (sample == null) {
          line(w, cells, widths, right);
          continue;
        }
        sample.add(cells);
        for (int c = 0; c < columns; c++) {
          widths[c] = Math.max(widths[c], cells[c].length());
        }
        if (sample.size() >= SAMPLE_ROWS) {
          flush(w, header, widths, right, sample);
          sample = null;
        }
      }
    }
    if (sample != null) {
      flush(w, header, widths, right, sample);
    }
    w.write("(" + rows + (rows == 1 ? " row)\n" : " rows)\n"));
    w.flush();
    return rows;
  }

  /** Prints the header, the rule and the buffered sample rows. */
  private static void flush(
      Writer w, List<String> header, int[] widths, boolean[] right, List<String[]> sample)
      throws IOException {
    line(w, header.toArray(String[]::new), widths, new boolean[widths.length]);
    StringBuilder rule = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      rule.append(c == 0 ? "" : "-+-").append("-".repeat(widths[c]));
    }
    w.write(rule.append('\n').toString());
    for (String[] cells : sample) {
      line(w, cells, widths, right);
    }
  }

  private static void line(Writer w, String[] cells, int[] widths, boolean[] right)
      throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        b.append(" | ");
      }
      String pad = " ".repeat(Math.max(0, widths[c] - cells[c].length()));
      b.append(right[c] ? pad + cells[c] : c == cells.length - 1 ? cells[c] : cells[c] + pad);
    }
    w.write(b.append('\n').toString());
  }
}
