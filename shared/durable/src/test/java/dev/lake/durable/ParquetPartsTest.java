package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import dev.lake.core.local.LocalObjectStore;
import dev.lake.core.testing.TestArrow;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part cutting, failure handling and download bounds of Parquet results, independent of the
 * encoder: the codec here is a fake of our own port that stores Arrow IPC (the real DuckDB codec is
 * tested in the engine and worker modules).
 */
class ParquetPartsTest {
  @TempDir Path dir;
  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void close() {
    allocator.close();
  }

  private static ResultConfig config(long partBytes, long partRows, int batchRows) {
    return new ResultConfig(partBytes, partRows, 1 << 20, batchRows, 1 << 20, Duration.ofHours(1));
  }

  private List<PartRef> write(ObjectStore store, ResultConfig config, ParquetCodec codec, int n) {
    try (ArrowReader in = TestArrow.reader(allocator, n, 1_000)) {
      return new ResultWriter(store, config, Optional.of(codec))
          .writeParts("r/acme/q1", in, ResultFormat.PARQUET, allocator, (rows, parts) -> {});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ResultManifest manifest(List<PartRef> parts, Schema schema) {
    Instant now = Instant.now();
    return new ResultManifest(
        "j-1",
        "acme",
        "q1",
        ResultFormat.PARQUET.manifestName(),
        schema.toJson(),
        parts,
        ResultManifest.STATE_COMPLETE,
        now,
        now.plusSeconds(60));
  }

  @Test
  void parquetParts_areCutLikeIpcParts_andDecodeToEveryRowInOrder() {
    // GIVEN parts capped at 3,000 rows
    ObjectStore store = new LocalObjectStore(dir);
    ResultConfig config = config(1 << 30, 3_000, 1_000);
    // WHEN 10,000 rows are written as Parquet
    List<PartRef> parts = write(store, config, new IpcCodec(), 10);
    // THEN the parts are .parquet, cut at 3,000 rows, and decode back in order
    assertThat(parts).extracting(PartRef::rows).containsExactly(3_000L, 3_000L, 3_000L, 1_000L);
    assertThat(parts.get(0).key()).isEqualTo("r/acme/q1/part-00000.parquet");
    ResultReader reader = new ResultReader(store, config, Optional.of(new IpcCodec()));
    ResultManifest m = manifest(parts, TestArrow.SCHEMA);
    List<Long> ids = new ArrayList<>();
    for (PartRef p : parts) {
      ids.addAll(TestArrow.ids(reader.openParquet(m, p.index(), p.key(), p.bytes(), allocator)));
    }
    assertThat(ids).isEqualTo(TestArrow.range(10_000));
  }

  @Test
  void parquetParts_areCutBySize() {
    // GIVEN parts capped at 32 KiB of Arrow data
    ObjectStore store = new LocalObjectStore(dir);
    // WHEN 20 batches of 1,000 rows (~19 KiB each) are written
    List<PartRef> parts = write(store, config(32 << 10, 1 << 30, 1_000), new IpcCodec(), 20);
    // THEN each part closed after the batch that crossed the bound
    assertThat(parts).hasSize(10).allSatisfy(p -> assertThat(p.rows()).isEqualTo(2_000));
  }

  @Test
  void listenerThatStops_failsWithItsOwnError_andLeavesNothing() {
    // GIVEN a listener that stops the attempt after 2,500 rows (3 parts of 1,000 rows)
    ObjectStore store = new LocalObjectStore(dir);
    ResultWriter writer =
        new ResultWriter(store, config(1 << 30, 1_000, 1_000), Optional.of(new IpcCodec()));
    LakeException stop = new LakeException(ErrorCode.CANCELLED, "stopped: CANCELLED");
    // WHEN written THEN the listener's own exception propagates and no object remains
    try (ArrowReader in = TestArrow.reader(allocator, 5, 1_000)) {
      assertThatThrownBy(
              () ->
                  writer.writeParts(
                      "q",
                      in,
                      ResultFormat.PARQUET,
                      allocator,
                      (rows, parts) -> {
                        if (rows > 2_500) {
                          throw stop;
                        }
                      }))
          .isSameAs(stop);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(store.list("q/")).isEmpty();
  }

  @Test
  void resultTypesParquetCannotCarry_failUnsupported_beforeAnyPartIsPublished() {
    // GIVEN a codec whose files read back with other types
    ObjectStore store = new LocalObjectStore(dir);
    Schema other = new Schema(List.of(Field.nullable("id", ArrowType.Utf8.INSTANCE)));
    ParquetCodec lossy =
        new IpcCodec() {
          @Override
          public Written write(ArrowReader batches, BufferAllocator a, OutputStream out) {
            return new Written(super.write(batches, a, out).bytes(), other);
          }
        };
    // WHEN written THEN UNSUPPORTED naming the option, and nothing remains
    assertThatThrownBy(() -> write(store, config(1 << 30, 1_000, 1_000), lossy, 3))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED))
        .hasMessageContaining(ResultFormat.HEADER);
    assertThat(store.list("r/")).isEmpty();
  }

  @Test
  void download_failsClosed_whenRowsSchemaOrBatchesDisagreeWithTheManifest() {
    // GIVEN a written part of 3,000 rows in batches of 1,000
    ObjectStore store = new LocalObjectStore(dir);
    ResultConfig config = config(1 << 30, 3_000, 1_000);
    PartRef part = write(store, config, new IpcCodec(), 3).get(0);
    ResultReader reader = new ResultReader(store, config, Optional.of(new IpcCodec()));
    // WHEN the manifest claims another row count THEN the download fails at its end
    PartRef claimed = new PartRef(0, part.key(), 2_999, part.bytes());
    assertThatThrownBy(
            () ->
                TestArrow.ids(
                    reader.openParquet(
                        manifest(List.of(claimed), TestArrow.SCHEMA),
                        0,
                        part.key(),
                        part.bytes(),
                        allocator)))
        .hasMessageContaining("Result part rejected");
    // WHEN the manifest has other columns THEN it fails before any batch
    Schema other = new Schema(List.of(Field.nullable("id", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(
            () ->
                reader.openParquet(
                    manifest(List.of(part), other), 0, part.key(), part.bytes(), allocator))
        .hasMessageContaining("Result part rejected");
    // WHEN a reader's bound is below the decoded batches THEN it fails on the first batch
    ResultReader strict =
        new ResultReader(store, config(1 << 30, 3_000, 999), Optional.of(new IpcCodec()));
    assertThatThrownBy(
            () ->
                TestArrow.ids(
                    strict.openParquet(
                        manifest(List.of(part), TestArrow.SCHEMA),
                        0,
                        part.key(),
                        part.bytes(),
                        allocator)))
        .hasMessageContaining("exceeds its bounds");
    // AND a ticket naming another key than the manifest's part is gone
    assertThatThrownBy(
            () ->
                reader.openParquet(
                    manifest(List.of(part), TestArrow.SCHEMA), 0, "r/x", part.bytes(), allocator))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    // AND the untouched part still downloads under the manifest's own claims
    assertThat(
            TestArrow.ids(
                reader.openParquet(
                    manifest(List.of(part), TestArrow.SCHEMA),
                    0,
                    part.key(),
                    part.bytes(),
                    allocator)))
        .hasSize(3_000);
  }

  @Test
  void parquetWithoutACodec_isUnsupported() {
    ResultWriter writer = new ResultWriter(new LocalObjectStore(dir), ResultConfig.defaults());
    try (ArrowReader in = TestArrow.reader(allocator, 1, 10)) {
      assertThatThrownBy(
              () -> writer.writeParts("q", in, ResultFormat.PARQUET, allocator, (r, n) -> {}))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void resultFormatHeader_acceptsArrowAndParquet_andNamesThemOtherwise() {
    assertThat(ResultFormat.parse(Optional.empty())).isEqualTo(ResultFormat.ARROW);
    assertThat(ResultFormat.parse(Optional.of(" Parquet "))).isEqualTo(ResultFormat.PARQUET);
    assertThat(ResultFormat.parse(Optional.of("arrow"))).isEqualTo(ResultFormat.ARROW);
    assertThatThrownBy(() -> ResultFormat.parse(Optional.of("csv")))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessage("Header x-lake-result-format must be one of arrow, parquet");
  }

  /** A fake of our own codec port: "Parquet" files that are Arrow IPC streams. */
  private static class IpcCodec implements ParquetCodec {
    @Override
    public Written write(ArrowReader batches, BufferAllocator allocator, OutputStream out) {
      try (batches) {
        VectorSchemaRoot root = batches.getVectorSchemaRoot();
        CountingOut counted = new CountingOut(out);
        try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, counted)) {
          w.start();
          while (batches.loadNextBatch()) {
            if (batches.getVectorSchemaRoot() != root) {
              throw new AssertionError("slices are not expected at 1,000-row batches");
            }
            w.writeBatch();
          }
          w.end();
        }
        return new Written(counted.count, root.getSchema());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public ArrowReader read(InputStream in, long maxBytes, int batchRows, BufferAllocator a) {
      try {
        return new ArrowStreamReader(new ByteArrayInputStream(in.readNBytes((int) maxBytes)), a);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public ArrowReader combine(
        String sql, java.util.List<ArrowReader> partials, BufferAllocator allocator) {
      throw new UnsupportedOperationException("no combine step in these tests");
    }

    @Override
    public void close() {}
  }

  private static final class CountingOut extends java.io.FilterOutputStream {
    long count;

    CountingOut(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }
  }
}
