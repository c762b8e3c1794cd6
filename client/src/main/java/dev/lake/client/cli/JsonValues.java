package dev.lake.client.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Arrow cells as JSON values: integers and decimals as exact numbers, finite floats as numbers,
 * booleans as booleans, lists as arrays, structs as objects (fields in order), maps as objects
 * keyed by the key's text; everything else as the string {@link Values#text} gives. The JSON output
 * writes these; the table and CSV outputs print a nested cell as this JSON text.
 */
final class JsonValues {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonValues() {}

  /** Whether {@code v} holds nested values (lists, structs, maps). */
  static boolean nested(ValueVector v) {
    return v instanceof BaseListVector || v instanceof LargeListVector || v instanceof StructVector;
  }

  /** A nested cell as compact JSON text. */
  static String text(ValueVector v, int row) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = FACTORY.createGenerator(text)) {
      json.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
      write(json, v, row);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /** Writes the cell {@code row} of {@code v} as one JSON value ({@code null} for SQL NULL). */
  static void write(JsonGenerator json, ValueVector v, int row) throws IOException {
    if (v.isNull(row)) {
      json.writeNull();
    } else if (v instanceof MapVector map) {
      writeMap(json, map, row);
    } else if (v instanceof BaseListVector list) {
      writeElements(
          json,
          list.getChildrenFromFields().get(0),
          list.getElementStartIndex(row),
          list.getElementEndIndex(row));
    } else if (v instanceof LargeListVector list) {
      writeElements(
          json,
          list.getDataVector(),
          Math.toIntExact(list.getElementStartIndex(row)),
          Math.toIntExact(list.getElementEndIndex(row)));
    } else if (v instanceof StructVector struct) {
      json.writeStartObject();
      for (FieldVector child : struct.getChildrenFromFields()) {
        json.writeFieldName(child.getName());
        write(json, child, row);
      }
      json.writeEndObject();
    } else {
      writeScalar(json, v, row);
    }
  }

  private static void writeElements(JsonGenerator json, ValueVector elements, int from, int to)
      throws IOException {
    json.writeStartArray();
    for (int i = from; i < to; i++) {
      write(json, elements, i);
    }
    json.writeEndArray();
  }

  private static void writeMap(JsonGenerator json, MapVector map, int row) throws IOException {
    StructVector entries = (StructVector) map.getDataVector();
    FieldVector keys = entries.getChildrenFromFields().get(0);
    FieldVector values = entries.getChildrenFromFields().get(1);
    json.writeStartObject();
    for (int i = map.getElementStartIndex(row); i < map.getElementEndIndex(row); i++) {
      String key = Values.text(keys, i);
      json.writeFieldName(key == null ? "null" : key);
      write(json, values, i);
    }
    json.writeEndObject();
  }

  private static void writeScalar(JsonGenerator json, ValueVector v, int row) throws IOException {
    String text = Values.text(v, row);
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
