package dev.lake.client.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * JSON Lines: one object per row, keys in column order. Integers (unsigned ones exactly), decimals
 * (exact, in plain notation), floats and booleans are JSON numbers and booleans; lists, structs and
 * maps are JSON arrays and objects; everything else is a string in the same form as the CSV output;
 * NULL is {@code null} ({@link JsonValues}).
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
            JsonValues.write(json, v, r);
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
}
