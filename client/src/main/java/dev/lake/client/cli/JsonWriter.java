package dev.lake.client.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * JSON Lines: one object per row, keys in column order. Integers, decimals (exact, in plain
 * notation), floats and booleans are JSON numbers and booleans; everything else is a string in the
 * same form as the CSV output; NULL is {@code null}.
 */
final class JsonWriter implements OutputWriter {
  @Override
  public long write(ArrowReader reader, Output out) throws IOException {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    long rows = 0;
    try (JsonGenerator json = new JsonFactory().createGenerator(out.stream())) {
      json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
      json.setPrettyPrinter(new MinimalPrettyPrinter("\n"));
      List<FieldVector> vectors = root.getFieldVectors();
      while (reader.loadNextBatch()) {
        for (int r = 0; r < root.getRowCount(); r++) {
          json.writeStartObject();
          for (FieldVector v : vectors) {
            json.writeFieldName(v.getName());
            write(json, v, r);
          }
          json.writeEndObject();
        }
        rows += root.getRowCount();
      }
      if (rows > 0) {
        json.writeRaw('\n');
      }
    }
    return rows;
  }

  private static void write(JsonGenerator json, FieldVector v, int row) throws IOException {
    String text = Values.text(v, row);
    if (text == null) {
      json.writeNull();
      return;
    }
    switch (Values.kind(v)) {
      case INTEGER, DECIMAL -> json.writeNumber(new BigDecimal(text));
      case FLOAT -> {
        double d = Double.parseDouble(text);
        if (Double.isFinite(d)) {
          json.writeNumber(d);
        } else {
          json.writeString(text);
        }
      }
      case BOOLEAN -> json.writeBoolean(Boolean.parseBoolean(text));
      case TEXT -> json.writeString(text);
    }
  }
}
