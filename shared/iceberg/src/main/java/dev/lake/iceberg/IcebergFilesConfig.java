package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How lake hands Iceberg data files to DuckDB's own Parquet reader (see docs/iceberg.md): whether
 * it does at all (otherwise every scan goes through Iceberg's generic reader into Arrow), and the
 * bounded local directory of file copies DuckDB is confined to.
 *
 * @param direct read with DuckDB's Parquet reader where the scan can be expressed exactly (else,
 *     and when false, Iceberg's generic reader)
 * @param cacheDirectory where local copies (hard links for local files) live; empty = a fresh
 *     private directory under the system temp directory, deleted at close
 * @param cacheBytes bound of the copies (leased files of running queries may exceed it)
 */
public record IcebergFilesConfig(boolean direct, Optional<Path> cacheDirectory, long cacheBytes) {
  public static final long DEFAULT_CACHE_BYTES = 4L << 30;
  static final long MIN_CACHE_BYTES = 16L << 20;
  static final long MAX_CACHE_BYTES = 16L << 40;

  public IcebergFilesConfig {
    requireNonNull(cacheDirectory, "cacheDirectory is null");
    Bounds.check("cacheBytes", cacheBytes, MIN_CACHE_BYTES, MAX_CACHE_BYTES);
    cacheDirectory.ifPresent(
        d -> {
          String s = d.toAbsolutePath().normalize().toString();
          // DuckDB expands glob characters in file names, and the directory is a SQL literal
          if (s.matches(".*[*?\\[\\]{}'\\\\].*")) {
            throw new IllegalArgumentException(
                "cacheDirectory must not contain * ? [ ] { } ' or \\: " + s);
          }
        });
  }

  /** Direct reads on, a private temp directory, 4 GiB. */
  public static IcebergFilesConfig defaults() {
    return new IcebergFilesConfig(true, Optional.empty(), DEFAULT_CACHE_BYTES);
  }

  /** Every scan through Iceberg's generic reader (the path before direct reads existed). */
  public static IcebergFilesConfig genericOnly() {
    return new IcebergFilesConfig(false, Optional.empty(), DEFAULT_CACHE_BYTES);
  }
}
