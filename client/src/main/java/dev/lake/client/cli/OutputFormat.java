package dev.lake.client.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/** The output formats of {@code lake sql} and {@code lake fetch}. */
enum OutputFormat {
  /** An aligned text table (the default on a terminal). */
  TABLE,
  /** RFC 4180 CSV with a header row (the default when standard output is not a terminal). */
  CSV,
  /** JSON Lines: one object per row. */
  JSON,
  /** Apache Parquet, written by DuckDB from the Arrow stream. */
  PARQUET,
  /** The Arrow IPC file format (Feather v2). */
  ARROW;

  /** A writer; {@code allocator} is the one the results are read with. */
  OutputWriter writer(BufferAllocator allocator) {
    return switch (this) {
      case TABLE -> new TableWriter();
      case CSV -> new CsvWriter();
      case JSON -> new JsonWriter();
      case PARQUET -> new ParquetWriter(allocator);
      case ARROW -> new ArrowWriter();
    };
  }

  /** Binary formats cannot go to a terminal and hold one result per file. */
  boolean binary() {
    return this == PARQUET || this == ARROW;
  }

  /** The format a file name suggests ({@code .parquet}, {@code .arrow}/{@code .feather}, …). */
  static Optional<OutputFormat> fromExtension(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet")) {
      return Optional.of(PARQUET);
    }
    if (name.endsWith(".arrow") || name.endsWith(".feather") || name.endsWith(".ipc")) {
      return Optional.of(ARROW);
    }
    if (name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return Optional.of(JSON);
    }
    if (name.endsWith(".csv")) {
      return Optional.of(CSV);
    }
    if (name.endsWith(".txt")) {
      return Optional.of(TABLE);
    }
    return Optional.empty();
  }
}
