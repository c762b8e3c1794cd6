package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.local.LocalObjectStore;
import dev.lake.core.testing.TestArrow;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterReaderTest {
  @TempDir Path dir;
  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void close() {
    allocator.close();
  }

  private static ResultConfig config(long partBytes, long partRows, int batchRows) {
    return new ResultConfig(partBytes, partRows, 1 << 20, batchRows, 1 << 20, Duration.ofHours(1));
  }

  @Test
  void writeParts_splitsByRows_andReadsBackEveryRowInOrder() {
    // GIVEN 10 batches of 1,000 rows and parts capped at 3,000 rows, batches at 700
    ObjectStore store = new LocalObjectStore(dir);
    ResultWriter writer = new ResultWriter(store, config(1 << 30, 3_000, 700));
    List<PartRef> parts;
    // WHEN written
    try (ArrowReader in = TestArrow.reader(allocator, 10, 1_000)) {
      parts = writer.writeParts("r/acme/q1", in, (rows, n) -> {});
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    // THEN 4 parts hold 3000/3000/3000/1000 rows and read back as ids 0..9999
    assertThat(parts).extracting(PartRef::rows).containsExactly(3_000L, 3_000L, 3_000L, 1_000L);
    assertThat(parts.get(0).key()).isEqualTo("r/acme/q1/part-00000.arrow");
    ResultReader reader = new ResultReader(store, config(1 << 30, 3_000, 700));
    List<Long> ids = new ArrayList<>();
    for (PartRef p : parts) {
      assertThat(store.size(p.key())).contains(p.bytes());
      ids.addAll(TestArrow.ids(reader.open(p.key(), p.bytes(), allocator)));
    }
    assertThat(ids).isEqualTo(TestArrow.range(10_000));
  }

  @Test
  void writeParts_cutsBatchesAboveTheMessageTarget_intoEqualMessages_keepingEveryRowInOrder()
      throws Exception {
    // GIVEN a writer whose message target is a quarter of a 1,000-row batch's bytes, parts of 1,500
    ObjectStore store = new LocalObjectStore(dir);
    long batchBytes;
    try (ArrowReader probe = equalWidthRows(1, 1_000)) {
      assertThat(probe.loadNextBatch()).isTrue();
      batchBytes = arrowBytes(probe.getVectorSchemaRoot());
    }
    ResultConfig config = config(1 << 30, 1_500, 1 << 20);
    ResultWriter writer = new ResultWriter(store, config, Optional.empty(), (batchBytes + 3) / 4);
    // WHEN 4 batches of 1,000 rows (every row of the same width) are written
    List<PartRef> parts;
    try (ArrowReader in = equalWidthRows(4, 1_000)) {
      parts = writer.writeParts("r/acme/q2", in, (rows, n) -> {});
    }
    // THEN each part holds 1,500 rows in messages of at most a quarter batch (±1 row): the
    // 1,000-row stretches as 4 x 250, the 500-row stretches (a batch cut by a part's end) as 2 x
    // 250
    assertThat(parts).extracting(PartRef::rows).containsExactly(1_500L, 1_500L, 1_000L);
    ResultReader reader = new ResultReader(store, config);
    List<Integer> messageRows = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    for (PartRef p : parts) {
      try (ArrowReader part = reader.open(p.key(), p.bytes(), allocator)) {
        while (part.loadNextBatch()) {
          VectorSchemaRoot root = part.getVectorSchemaRoot();
          messageRows.add(root.getRowCount());
          BigIntVector id = (BigIntVector) root.getVector("id");
          for (int i = 0; i < root.getRowCount(); i++) {
            ids.add(id.get(i));
          }
        }
      }
    }
    assertThat(messageRows).hasSize(16).allSatisfy(n -> assertThat(n).isEqualTo(250));
    assertThat(ids).isEqualTo(TestArrow.range(4_000));
  }

  /** {@code batches} batches of {@code rows} rows of {@link TestArrow#SCHEMA}, ids 0, 1, 2, ... */
  private ArrowReader equalWidthRows(int batches, int rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(TestArrow.SCHEMA, allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
      writer.start();
      BigIntVector ids = (BigIntVector) root.getVector("id");
      VarCharVector names = (VarCharVector) root.getVector("name");
      for (int b = 0, id = 0; b < batches; b++) {
        ids.allocateNew(rows);
        names.allocateNew(rows);
        for (int r = 0; r < rows; r++, id++) {
          ids.set(r, id);
          names.setSafe(r, String.format("row-%06d", id).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(rows);
        writer.writeBatch();
      }
      writer.end();
    }
    return new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator);
  }

  private static long arrowBytes(VectorSchemaRoot root) {
    long bytes = 0;
    for (FieldVector v : root.getFieldVectors()) {
      bytes += v.getBufferSize();
    }
    return bytes;
  }

  @Test
  void writeParts_splitsBySize() {
    // GIVEN parts capped at 16 KiB
    ObjectStore store = new LocalObjectStore(dir);
    ResultWriter writer = new ResultWriter(store, config(16 << 10, 1 << 30, 1_000));
    // WHEN 20,000 rows are written
    List<PartRef> parts;
    try (ArrowReader in = TestArrow.reader(allocator, 4, 5_000)) {
      parts = writer.writeParts("q", in, (r, n) -> {});
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    // THEN there are many parts, each at most one message past the cap
    assertThat(parts.size()).isGreaterThan(5);
    assertThat(parts).allSatisfy(p -> assertThat(p.bytes()).isLessThan((16 << 10) + 40_000));
    assertThat(parts.stream().mapToLong(PartRef::rows).sum()).isEqualTo(20_000);
  }

  @Test
  void writeParts_failingListener_abortsAndDeletesEveryPart() {
    // GIVEN a listener that cancels after the third batch
    ObjectStore store = new LocalObjectStore(dir);
    ResultWriter writer = new ResultWriter(store, config(1 << 30, 1_000, 1_000));
    // WHEN writing 10 batches
    ArrowReader in = TestArrow.reader(allocator, 10, 1_000);
    assertThatThrownBy(
            () ->
                writer.writeParts(
                    "t/q",
                    in,
                    (rows, n) -> {
                      if (rows >= 3_000) {
                        throw new LakeException(ErrorCode.CANCELLED, "cancelled");
                      }
                    }))
        .isInstanceOf(LakeException.class)
        .hasMessage("cancelled");
    try {
      in.close();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    // THEN nothing is left under the result directory
    assertThat(store.list("t/")).isEmpty();
  }

  @Test
  void reader_rejectsCompressedBody_beforeAllocating() {
    // GIVEN a schema followed by a batch header declaring LZ4 compression
    byte[] stream = concat(schemaOnly(), message(batchHeader(1, 8, true)), new byte[8]);
    // WHEN read with an allocator too small to hold anything
    // THEN the framing check rejects it
    assertRejected(stream, "compressed record batch bodies are not accepted");
  }

  @Test
  void reader_rejectsOversizedBody_beforeAllocating() {
    // GIVEN a batch header claiming a 2 GiB body (not present)
    byte[] stream = concat(schemaOnly(), message(batchHeader(1, 2L << 30, false)));
    assertRejected(stream, "message body of 2147483648 bytes exceeds the limit");
  }

  @Test
  void reader_rejectsOversizedHeader() {
    // GIVEN a prefix announcing a 2 GiB flatbuffer header
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0xFFFFFFFF).putInt(Integer.MAX_VALUE);
    assertRejected(concat(schemaOnly(), b.array()), "exceeds the limit");
  }

  @Test
  void reader_rejectsBatchWithTooManyRows() {
    // GIVEN a well-formed stream whose batches exceed the reader's row bound
    byte[] stream = TestArrow.ipc(allocator, 1, 500);
    ResultReader reader = new ResultReader(new LocalObjectStore(dir), config(1 << 30, 1_000, 100));
    try (BufferAllocator small = allocator.newChildAllocator("small", 0, 64 << 10)) {
      assertThatThrownBy(() -> TestArrow.ids(reader.open(new ByteArrayInputStream(stream), small)))
          .isInstanceOf(LakeException.class)
          .hasMessageContaining("record batch of 500 rows exceeds the limit");
    }
  }

  @Test
  void reader_rejectsReplacedPart_bySize() {
    ObjectStore store = new LocalObjectStore(dir);
    store.put("p.arrow", TestArrow.ipc(allocator, 1, 10), true);
    ResultReader reader = new ResultReader(store, ResultConfig.defaults());
    assertThatThrownBy(() -> reader.open("p.arrow", 1, allocator))
        .isInstanceOf(LakeException.class)
        .hasMessage("Result part no longer exists; it expired or was replaced");
  }

  /**
   * Both ways a part is read reject {@code stream} with the same message: streamed through the
   * framing check, and read from a local file (the store's parts) with the same per-message rules.
   */
  private void assertRejected(byte[] stream, String why) {
    ObjectStore store = new LocalObjectStore(dir);
    ResultReader reader = new ResultReader(store, ResultConfig.defaults());
    store.put("hostile.arrow", stream, true);
    try (BufferAllocator tiny = allocator.newChildAllocator("tiny", 0, 4096)) {
      assertThatThrownBy(() -> TestArrow.ids(reader.open(new ByteArrayInputStream(stream), tiny)))
          .isInstanceOf(LakeException.class)
          .hasMessageStartingWith("Result part rejected by framing check: ")
          .hasMessageContaining(why);
      assertThatThrownBy(() -> TestArrow.ids(reader.open("hostile.arrow", stream.length, tiny)))
          .isInstanceOf(LakeException.class)
          .hasMessageStartingWith("Result part rejected by framing check: ")
          .hasMessageContaining(why);
      assertThat(tiny.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void filePart_readsTheSameRowsAsTheStream_andReleasesEveryBodyWhenClosed() {
    // GIVEN a part stored as a local file
    ObjectStore store = new LocalObjectStore(dir);
    byte[] ipc = TestArrow.ipc(allocator, 3, 1_000);
    store.put("q/part-00000.arrow", ipc, true);
    ResultReader reader = new ResultReader(store, ResultConfig.defaults());
    assertThat(store.findLocalFile("q/part-00000.arrow")).isPresent();
    // WHEN it is opened by key (read from the file) and as a stream
    List<Long> fromFile = TestArrow.ids(reader.open("q/part-00000.arrow", ipc.length, allocator));
    List<Long> streamed = TestArrow.ids(reader.open(new ByteArrayInputStream(ipc), allocator));
    // THEN both read every row, and closing the file's reader released every body it read
    assertThat(fromFile).isEqualTo(streamed).isEqualTo(TestArrow.range(3_000));
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void filePart_batchIsACopyInTheReadersAllocator_thatAFileChangedInPlaceCannotAlter()
      throws Exception {
    // GIVEN a part stored as a local file, its first batch loaded
    ObjectStore store = new LocalObjectStore(dir);
    byte[] ipc = TestArrow.ipc(allocator, 2, 1_000);
    store.put("q/part-00000.arrow", ipc, true);
    Path file = store.findLocalFile("q/part-00000.arrow").orElseThrow();
    ResultReader reader = new ResultReader(store, ResultConfig.defaults());
    try (BufferAllocator child = allocator.newChildAllocator("part", 0, Long.MAX_VALUE);
        ArrowReader part = reader.open("q/part-00000.arrow", ipc.length, child)) {
      assertThat(part.loadNextBatch()).isTrue();
      // WHEN the file's bytes are overwritten in place (same file, same size)
      try (java.nio.channels.FileChannel channel =
          java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(new byte[ipc.length]), 0);
      }
      // THEN the loaded batch still holds the rows it read (a mapped body would now read zeros),
      // and its body is memory of the reader's allocator
      org.apache.arrow.vector.BigIntVector ids =
          (org.apache.arrow.vector.BigIntVector) part.getVectorSchemaRoot().getVector("id");
      assertThat(ids.get(999)).isEqualTo(999L);
      assertThat(child.getAllocatedMemory()).isGreaterThanOrEqualTo(8L * 1_000);
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void filePart_truncatedFile_isRejected() {
    // GIVEN a stored part cut inside its last batch's body (size sealed = the cut size)
    ObjectStore store = new LocalObjectStore(dir);
    byte[] ipc = TestArrow.ipc(allocator, 2, 100);
    byte[] cut = java.util.Arrays.copyOf(ipc, ipc.length - 40);
    store.put("cut.arrow", cut, true);
    ResultReader reader = new ResultReader(store, ResultConfig.defaults());
    // WHEN read THEN the framing check names the truncation, nothing stays allocated
    assertThatThrownBy(() -> TestArrow.ids(reader.open("cut.arrow", cut.length, allocator)))
        .isInstanceOf(LakeException.class)
        .hasMessageContaining("truncated message");
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  /** The schema message of a valid stream, without its end marker. */
  private byte[] schemaOnly() {
    byte[] valid = TestArrow.ipc(allocator, 0, 0);
    return java.util.Arrays.copyOf(valid, valid.length - 8);
  }

  private static byte[] batchHeader(long rows, long bodyLength, boolean compressed) {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int compression =
        compressed
            ? BodyCompression.createBodyCompression(
                b, CompressionType.LZ4_FRAME, BodyCompressionMethod.BUFFER)
            : 0;
    RecordBatch.startNodesVector(b, 0);
    int nodes = b.endVector();
    RecordBatch.startBuffersVector(b, 0);
    int buffers = b.endVector();
    int batch = RecordBatch.createRecordBatch(b, rows, nodes, buffers, compression, 0);
    int message =
        Message.createMessage(
            b, MetadataVersion.V5, MessageHeader.RecordBatch, batch, bodyLength, 0);
    b.finish(message);
    return b.sizedByteArray();
  }

  private static byte[] message(byte[] header) {
    int padded = (header.length + 7) / 8 * 8;
    ByteBuffer b = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0xFFFFFFFF).putInt(padded).put(header);
    return b.array();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
