package dev.lake.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H queries (validation parameters, plain date literals, Q15's view as a CTE, ties in
 * ORDER BY broken by a key so that the row order is deterministic), written against {@code
 * lake.tpch.*}; {@link #forCatalog} renames the catalog for the Iceberg variant. P3 times {@link
 * #IDS}; {@code TpchExactnessTest} checks {@link #ALL_IDS} value for value.
 */
final class TpchQueries {
  /** The queries P3 times. */
  static final List<String> IDS = List.of("Q1", "Q3", "Q5", "Q6", "Q10", "Q12", "Q14", "Q19");

  /** Every TPC-H query, Q1 … Q22. */
  static final List<String> ALL_IDS = IntStream.rangeClosed(1, 22).mapToObj(i -> "Q" + i).toList();

  private TpchQueries() {}

  /** Query id → SQL over {@code <catalog>.tpch.*}, in {@link #IDS} order. */
  static Map<String, String> forCatalog(String catalog) {
    return forCatalog(catalog, IDS);
  }

  /** Query id → SQL over {@code <catalog>.tpch.*}, in the order of {@code ids}. */
  static Map<String, String> forCatalog(String catalog, List<String> ids) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String id : ids) {
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
