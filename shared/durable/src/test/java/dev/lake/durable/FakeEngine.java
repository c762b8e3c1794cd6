package dev.lake.durable;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.testing.TestArrow;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A hand-written fake of our own QueryEngine port for worker state-machine tests: it produces
 * {@code batches} × {@code rows} numbered rows, sleeping {@code delay} per batch, and honours
 * cancel() like the real engine (the next batch fails).
 */
public final class FakeEngine implements QueryEngine {
  private final int batches;
  private final int rows;
  private final Duration delay;
  private final RuntimeException failure;
  private final int splitInto;

  public FakeEngine(int batches, int rows, Duration delay) {
    this(batches, rows, delay, null, 1);
  }

  private FakeEngine(
      int batches, int rows, Duration delay, RuntimeException failure, int splitInto) {
    this.batches = batches;
    this.rows = rows;
    this.delay = delay;
    this.failure = failure;
    this.splitInto = splitInto;
  }

  /**
   * An engine that cuts every whole Lance snapshot into {@code splitInto} splits (fragment i each)
   * when asked, a split's execution producing its share, {@code batches / splitInto} batches.
   */
  static FakeEngine splitting(int batches, int rows, Duration delay, int splitInto) {
    return new FakeEngine(batches, rows, delay, null, splitInto);
  }

  /** An engine whose every execution throws {@code failure} (a bug, or a typed error). */
  static FakeEngine failing(RuntimeException failure) {
    return new FakeEngine(0, 0, Duration.ZERO, failure, 1);
  }

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    return TestArrow.SCHEMA;
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    if (failure != null) {
      throw failure;
    }
    AtomicBoolean cancelled = new AtomicBoolean();
    boolean split =
        snapshots.snapshots().values().stream()
            .anyMatch(s -> s instanceof dev.lake.lance.LanceSnapshot l && l.restricted());
    ArrowReader reader = new Generated(allocator, cancelled, split ? batches / splitInto : batches);
    return new QueryExecution() {
      @Override
      public ArrowReader reader() {
        return reader;
      }

      @Override
      public void cancel() {
        cancelled.set(true);
      }

      @Override
      public void close() {
        try {
          reader.close();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
  }

  /** The fake enforces no deadline of its own (tests bound time through {@code delay}). */
  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return execute(query, parameters, snapshots, allocator);
  }

  @Override
  public Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots) {
    return new Schema(List.of());
  }

  /** No tenant isolation: every tenant sees this engine. */
  @Override
  public QueryEngine forTenant(String tenant) {
    return this;
  }

  @Override
  public Optional<Duration> maxInteractiveTimeout() {
    return Optional.empty();
  }

  @Override
  public Optional<ParquetCodec> parquet() {
    return Optional.empty();
  }

  @Override
  public dev.lake.core.SplitPlan splits(
      dev.lake.core.AdmittedQuery query,
      dev.lake.core.SnapshotSet snapshots,
      long targetRows,
      int maxSplits) {
    if (splitInto < 2
        || snapshots.snapshots().size() != 1
        || !(snapshots.snapshots().values().iterator().next()
            instanceof dev.lake.lance.LanceSnapshot l)
        || l.restricted()) {
      return dev.lake.core.SplitPlan.single(query, snapshots);
    }
    dev.lake.core.TableRef ref = snapshots.snapshots().keySet().iterator().next();
    java.util.List<SnapshotSet> out = new java.util.ArrayList<>();
    for (int i = 0; i < Math.min(splitInto, maxSplits); i++) {
      out.add(
          new SnapshotSet(
              java.util.Map.of(
                  ref,
                  new dev.lake.lance.LanceSnapshot(
                      l.location(), l.incarnation(), l.version(), java.util.List.of(i)))));
    }
    return new dev.lake.core.SplitPlan(out, query.sql(), Optional.empty());
  }

  @Override
  public CacheStats cacheStats() {
    return CacheStats.NONE;
  }

  @Override
  public void close() {}

  private final class Generated extends ArrowReader {
    private final AtomicBoolean cancelled;
    private final int batches;
    private int produced;

    Generated(BufferAllocator allocator, AtomicBoolean cancelled, int batches) {
      super(allocator);
      this.cancelled = cancelled;
      this.batches = batches;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (produced >= batches) {
        return false;
      }
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (cancelled.get()) {
        throw new LakeException(ErrorCode.CANCELLED, "The query was cancelled");
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      BigIntVector ids = (BigIntVector) root.getVector("id");
      VarCharVector names = (VarCharVector) root.getVector("name");
      ids.allocateNew(rows);
      names.allocateNew(rows);
      for (int r = 0; r < rows; r++) {
        long id = (long) produced * rows + r;
        ids.set(r, id);
        names.setSafe(r, ("row-" + id).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(rows);
      produced++;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return TestArrow.SCHEMA;
    }
  }
}
