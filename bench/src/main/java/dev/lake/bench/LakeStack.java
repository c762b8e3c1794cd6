package dev.lake.bench;

import dev.lake.core.CacheStats;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A real lake front door running in this JVM on loopback over the bench's TPC-H data, plus what the
 * metrics need to know about it. Which parts exist depends on which lake modules are built.
 */
interface LakeStack extends AutoCloseable {
  /** {@code grpc://127.0.0.1:<port>}. */
  String uri();

  /** The bearer token of a principal granted {@code lake.tpch} (and {@code iceberg.tpch}). */
  String token();

  /** The engine's configured memory limit (DuckDB {@code memory_limit}). */
  long engineMemoryLimitBytes();

  /** Empty if {@code iceberg.tpch.*} is served, else why not. */
  Optional<String> icebergMissing();

  /** Empty if PollFlightInfo (durable queries) is served, else why not. */
  Optional<String> durableMissing();

  /**
   * Server-side submit → SUCCEEDED milliseconds (job record created → last update) of every
   * succeeded durable job so far; empty if the stack cannot tell.
   */
  default List<Double> succeededJobMillis() {
    return List.of();
  }

  /** The most parts any durable result written so far has (P4 checks it downloaded several). */
  default OptionalInt largestDurableResultParts() {
    return OptionalInt.empty();
  }

  /**
   * Empty if the stack can count REST {@code loadTable} calls on a table nobody has read yet, else
   * why not. See {@link #coldIcebergTable()}.
   */
  default Optional<String> loadTableCountMissing() {
    return Optional.of("the Iceberg REST server of this stack does not count loadTable calls");
  }

  /** A fully qualified Iceberg table no request has resolved yet; each call gives a new one. */
  default String coldIcebergTable() {
    throw new UnsupportedOperationException();
  }

  /** REST loadTable calls seen so far for {@code table} (fully qualified). */
  default long loadTableCalls(String table) {
    throw new UnsupportedOperationException();
  }

  /** The engine's cache counters now; empty if the stack cannot tell. */
  default Optional<CacheStats> cacheStats() {
    return Optional.empty();
  }

  /**
   * The Iceberg catalog server's CPU so far and the TPC-H loadTable requests it has served; empty
   * if the stack cannot tell (no catalog process of its own).
   */
  default Optional<CatalogUsage> icebergCatalogUsage() {
    return Optional.empty();
  }

  /**
   * What the Iceberg catalog server has done so far.
   *
   * @param cpuNanos the catalog process's CPU time (all its threads: requests, JIT, GC)
   * @param loads REST loadTable requests it has served for the TPC-H tables
   */
  record CatalogUsage(long cpuNanos, long loads) {
    public CatalogUsage {
      if (cpuNanos < 0 || loads < 0) {
        throw new IllegalArgumentException("negative catalog usage: " + cpuNanos + ", " + loads);
      }
    }
  }

  @Override
  void close() throws Exception;
}
