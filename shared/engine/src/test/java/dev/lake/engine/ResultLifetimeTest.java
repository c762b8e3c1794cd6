package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The front door writes result batches zero-copy: gRPC holds a batch's buffers until Netty wrote
 * them, which can be after the stream and its execution ended (a client that stopped reading).
 */
class ResultLifetimeTest {
  @TempDir Path dir;
  private DuckDbQueryEngine engine;
  private DuckDbSqlAdmission admission;
  private final BufferAllocator allocator = new RootAllocator();

  @BeforeEach
  void open() {
    engine = new DuckDbQueryEngine(EngineConfig.defaults(dir.resolve("spill")), List.of());
    admission = new DuckDbSqlAdmission();
  }

  @AfterEach
  void close() {
    admission.close();
    engine.close();
    allocator.close(); // throws if anything was left behind
  }

  @Test
  void resultBatches_outliveTheirExecution_andTheirMemoryReturnsAtTheLastRelease()
      throws Exception {
    // GIVEN a streamed engine result whose first batch a writer still holds (as gRPC does)
    QueryExecution execution =
        engine.execute(
            admission.admit("SELECT range AS n, 'row ' || range AS s FROM range(100000)"),
            List.of(),
            SnapshotSet.empty(),
            allocator);
    ArrowReader reader = execution.reader();
    assertThat(reader.loadNextBatch()).isTrue();
    VectorSchemaRoot batch = reader.getVectorSchemaRoot();
    List<ArrowBuf> held = new ArrayList<>();
    for (FieldVector v : batch.getFieldVectors()) {
      for (ArrowBuf b : v.getFieldBuffers()) {
        b.getReferenceManager().retain();
        held.add(b);
      }
    }
    long first = ((BigIntVector) batch.getVector(0)).get(0);
    ArrowBuf values = ((BigIntVector) batch.getVector(0)).getDataBuffer();

    // WHEN the execution closes before the writer let go (cancelled: the client stopped reading)
    execution.close();

    // THEN the close succeeds, the held batch is still accounted and still readable
    assertThat(allocator.getAllocatedMemory()).isPositive();
    assertThat(values.getLong(0)).isEqualTo(first);

    // AND once the writer releases it, every byte returns and no allocator is left open
    held.forEach(ArrowBuf::close);
    assertThat(allocator.getAllocatedMemory()).isZero();
    assertThat(allocator.getChildAllocators()).isEmpty();

    // AND a fresh statement still runs
    QueryExecution next =
        engine.execute(
            admission.admit("SELECT 42 AS x"), List.of(), SnapshotSet.empty(), allocator);
    assertThat(EngineTestSupport.rows(next)).containsExactly(List.of("42"));
  }
}
