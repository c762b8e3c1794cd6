package dev.lake.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TPC-H queries of P3 (validation parameters, plain date literals), written against {@code
 * lake.tpch.*}; {@link #forCatalog} renames the catalog for the Iceberg variant.
 */
final class TpchQueries {
  static final List<String> IDS = List.of("Q1", "Q3", "Q5", "Q6", "Q10", "Q12", "Q14", "Q19");

  private TpchQueries() {}

  /** Query id → SQL over {@code <catalog>.tpch.*}, in {@link #IDS} order. */
  static Map<String, String> forCatalog(String catalog) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String id : IDS) {
      out.put(id, load(id).replace("lake.tpch.", catalog + ".tpch."));
    }
    return out;
  }

  private static String load(String id) {
    String name = "tpch/" + id.toLowerCase(java.util.Locale.ROOT) + ".sql";
    try (InputStream in = TpchQueries.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing query resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
