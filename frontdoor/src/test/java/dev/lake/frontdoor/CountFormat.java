package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Bounds;
import dev.lake.core.EntryResolver;
import dev.lake.core.ErrorCode;
import dev.lake.core.FormatContext;
import dev.lake.core.FormatOptions;
import dev.lake.core.LakeException;
import dev.lake.core.RegisteredTables;
import dev.lake.core.Registry;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableFormat;
import dev.lake.core.TableFormats;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.Option;

/**
 * A tiny test-only second registry-backed format (tag {@code count}), installed in the front door's
 * tests by one line in {@code META-INF/services/dev.lake.core.TableFormat}: a table registered with
 * option {@code rows=N} reads as one BIGINT column {@code n} holding offset..offset+N-1, where the
 * offset is the format's own flag {@code --count-offset} ({@code LAKE_COUNT_OFFSET}, 0 by default).
 * It exists to prove that catalog {@code lake} serves any format that contributes {@link
 * TableFormat#openRegistered}, and that every lake process command takes a format's flags, with no
 * change outside the format.
 */
public final class CountFormat implements TableFormat<CountFormat.CountSnapshot> {
  public static final String TAG = "count";
  static final Schema SCHEMA =
      new Schema(List.of(new Field("n", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  /** The count format's settings: the first value of every count table. */
  public record CountSettings(long offset) {
    static final long MAX_OFFSET = 1_000_000;

    public CountSettings {
      Bounds.check("offset", offset, 0, MAX_OFFSET);
    }
  }

  /** The count format's flags, a picocli mixin every lake process command adds. */
  static final class CountOptions implements FormatOptions {
    @Option(
        names = "--count-offset",
        defaultValue = "0",
        description = "First value of every count table (a test-only format).")
    long offset;

    @Override
    public List<Object> settings() {
      return List.of(new CountSettings(offset));
    }
  }

  /** The exact identity of a count table: its registry incarnation, row count and offset. */
  public record CountSnapshot(String incarnation, long rows, long offset) implements Snapshot {
    public CountSnapshot {
      requireNonNull(incarnation, "incarnation is null");
    }

    @Override
    public String describe() {
      return rows + " rows";
    }
  }

  @Override
  public String tag() {
    return TAG;
  }

  @Override
  public Class<CountSnapshot> snapshotType() {
    return CountSnapshot.class;
  }

  @Override
  public void encode(CountSnapshot snapshot, ObjectNode node) {
    node.put("incarnation", snapshot.incarnation());
    node.put("rows", snapshot.rows());
    node.put("offset", snapshot.offset());
  }

  @Override
  public CountSnapshot decode(JsonNode node) {
    return new CountSnapshot(
        TableFormats.text(node, "incarnation"),
        TableFormats.number(node, "rows"),
        TableFormats.number(node, "offset"));
  }

  /** A count table takes exactly one option, {@code rows}, a number from 0 to 1000. */
  @Override
  public void checkEntry(String location, Map<String, String> options) {
    String rows = options.get("rows");
    if (options.size() != 1 || rows == null || !rows.matches("[0-9]{1,3}|1000")) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A count table needs rows=0..1000");
    }
  }

  @Override
  public Optional<FormatOptions> newOptions() {
    return Optional.of(new CountOptions());
  }

  @Override
  public Optional<RegisteredTables> openRegistered(FormatContext context) {
    long offset = context.findSettings(CountSettings.class).map(CountSettings::offset).orElse(0L);
    return Optional.of(new RegisteredTables(new Resolver(offset), new Reader(), Optional.empty()));
  }

  private record Resolver(long offset) implements EntryResolver {
    @Override
    public Snapshot resolve(Registry.Entry entry) {
      return new CountSnapshot(
          entry.incarnation(), Long.parseLong(entry.options().get("rows")), offset);
    }

    @Override
    public boolean denotes(Registry.Entry entry, Snapshot sealed) {
      return sealed instanceof CountSnapshot s && s.incarnation().equals(entry.incarnation());
    }
  }

  private static final class Reader implements TableReader {
    @Override
    public boolean supports(Snapshot snapshot) {
      return snapshot instanceof CountSnapshot;
    }

    @Override
    public Schema schema(TableRef ref, Snapshot snapshot) {
      return SCHEMA;
    }

    /** One stream of one batch (the tables are tiny), written and read back as Arrow IPC. */
    @Override
    public List<ArrowReader> scan(
        TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
      long rows = ((CountSnapshot) snapshot).rows();
      long offset = ((CountSnapshot) snapshot).offset();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
          ArrowStreamWriter writer = new ArrowStreamWriter(root, null, bytes)) {
        BigIntVector n = (BigIntVector) root.getVector(0);
        n.allocateNew((int) rows);
        for (int i = 0; i < rows; i++) {
          n.set(i, offset + i);
        }
        root.setRowCount((int) rows);
        writer.start();
        writer.writeBatch();
        writer.end();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return List.of(
          new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator));
    }
  }
}
