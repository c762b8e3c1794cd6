package dev.lake.client.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** CSV (RFC 4180, header row, NULL as an empty field) through Jackson's CSV generator. */
final class CsvWriter implements OutputWriter {
  @Override
  public long write(ArrowReader reader, Output out) throws IOException {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
    root.getSchema().getFields().forEach(f -> schema.addColumn(f.getName()));
    long rows = 0;
    try (CsvGenerator csv = new CsvFactory().createGenerator(out.stream())) {
      csv.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      csv.setSchema(schema.build());
      List<FieldVector> vectors = root.getFieldVectors();
      while (reader.loadNextBatch()) {
        for (int r = 0; r < root.getRowCount(); r++) {
          csv.writeStartArray();
          for (FieldVector v : vectors) {
            String text = Values.text(v, r);
            if (text == null) {
              csv.writeNull();
            } else {
              csv.writeString(text);
            }
          }
          csv.writeEndArray();
        }
        rows += root.getRowCount();
      }
    }
    return rows;
  }
}
