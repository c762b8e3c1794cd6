package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WireRootTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private final BufferAllocator root = new RootAllocator();
  private final BufferAllocator query = root.newChildAllocator("query", 0, Long.MAX_VALUE);
  private final VectorSchemaRoot source = VectorSchemaRoot.create(SCHEMA, query);

  @AfterEach
  void close() {
    source.close();
    query.close();
    root.close(); // throws if a wire allocator or buffer was left behind
  }

  @Test
  void take_movesTheBatchWithoutCopying_andLeavesTheReaderFreeToLoadTheNext() {
    try (WireRoot wire = WireRoot.over(source).orElseThrow()) {
      // GIVEN a loaded batch
      fill(0, "a", "b", "c");
      long address = ((BigIntVector) source.getVector(0)).getDataBuffer().memoryAddress();
      // WHEN it moves to the wire root
      wire.take(source);
      // THEN the wire root sends the very same memory and the reader holds nothing any more
      BigIntVector sent = (BigIntVector) wire.root().getVector(0);
      assertThat(sent.getDataBuffer().memoryAddress()).isEqualTo(address);
      assertThat(wire.root().getRowCount()).isEqualTo(3);
      assertThat(((VarCharVector) wire.root().getVector(1)).getObject(2).toString()).isEqualTo("c");
      assertThat(query.getAllocatedMemory()).isZero();
      // AND the next batch loads into fresh buffers of the reader, never into the sent ones
      fill(10, "d");
      assertThat(((BigIntVector) source.getVector(0)).getDataBuffer().memoryAddress())
          .isNotEqualTo(address);
      assertThat(sent.get(0)).isEqualTo(0);
    }
  }

  @Test
  void awaitDrained_waitsForGrpcsLastReference_andTheAllocatorClosesAfterIt() throws Exception {
    WireRoot wire = WireRoot.over(source).orElseThrow();
    fill(0, "a", "b");
    wire.take(source);
    // GIVEN gRPC still holds the batch's data buffer (as a zero-copy write does until it is sent)
    ArrowBuf held = ((BigIntVector) wire.root().getVector(0)).getDataBuffer();
    held.getReferenceManager().retain();
    // WHEN the stream ends THEN the wait is bounded and reports the buffer still held
    assertThat(wire.awaitDrained(Duration.ofMillis(20))).isFalse();
    assertThat(wire.heldBytes()).isPositive();
    // AND a release on another thread (Netty after writing) ends a waiting drain
    CompletableFuture<Boolean> drained =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return wire.awaitDrained(Duration.ofSeconds(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    held.getReferenceManager().release();
    assertThat(drained.get(30, TimeUnit.SECONDS)).isTrue();
    wire.close();
    assertThat(wires()).isZero();
  }

  @Test
  void close_beforeGrpcReleased_closesTheAllocatorAtTheLastRelease() {
    WireRoot wire = WireRoot.over(source).orElseThrow();
    fill(0, "x");
    wire.take(source);
    ArrowBuf held = ((VarCharVector) wire.root().getVector(1)).getDataBuffer();
    held.getReferenceManager().retain();
    // GIVEN a stream that ended (cancelled, or the client stopped reading) while gRPC holds a
    // buffer
    wire.close();
    assertThat(wires()).isEqualTo(1);
    // WHEN gRPC releases it THEN the wire allocator closes by itself, nothing leaks
    held.getReferenceManager().release();
    assertThat(wires()).isZero();
  }

  @Test
  void over_aRootWithoutColumns_isEmpty() {
    try (VectorSchemaRoot none = VectorSchemaRoot.create(new Schema(List.of()), query)) {
      assertThat(WireRoot.over(none)).isEmpty();
    }
  }

  /** Wire allocators still open (siblings of the reader's allocator). */
  private long wires() {
    return root.getChildAllocators().stream()
        .filter(a -> a.getName().equals("stream-wire"))
        .count();
  }

  private void fill(long first, String... names) {
    BigIntVector ids = (BigIntVector) source.getVector(0);
    VarCharVector strings = (VarCharVector) source.getVector(1);
    ids.allocateNew(names.length);
    strings.allocateNew(names.length);
    for (int i = 0; i < names.length; i++) {
      ids.set(i, first + i);
      strings.setSafe(i, names[i].getBytes(StandardCharsets.UTF_8));
    }
    source.setRowCount(names.length);
  }
}
