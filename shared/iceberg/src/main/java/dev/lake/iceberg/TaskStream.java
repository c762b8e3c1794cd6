package dev.lake.iceberg;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.PartitionUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Arrow stream over a share of a pinned scan's file tasks. Each task is read the way Iceberg's
 * own generic reader ({@code IcebergGenerics}) reads it: the data file through the format-model
 * registry with the projection resolved by field id (so renamed, added and dropped columns read
 * correctly), position and equality deletes applied by {@link GenericDeleteFilter}, then the
 * residual filter. Records are copied into Arrow vectors in batches.
 *
 * <p>A failed file read renews once (the {@link Renewer} point-loads the table again, which
 * re-checks the snapshot and refreshes the FileIO and its credentials) and retries the task,
 * skipping the rows already delivered; a second failure is {@link ErrorCode#EXTERNAL_UNAVAILABLE}.
 */
final class TaskStream extends ArrowReader {
  private static final Logger LOG = LoggerFactory.getLogger(TaskStream.class);

  /** What a read needs from the pinned table; renewed after a failed read. */
  record Context(FileIO io, org.apache.iceberg.Schema tableSchema) {}

  /** Point-loads the pinned table again (may throw SNAPSHOT_GONE) and returns a fresh context. */
  interface Renewer {
    Context renew();
  }

  private final TableRef ref;
  private final List<FileScanTask> tasks;
  private final org.apache.iceberg.Schema projection;
  private final int[] positions;
  private final Schema arrowSchema;
  private final List<ArrowTypes.ValueWriter> writers;
  private final int batchSize;
  private final Renewer renewer;
  private Context context;

  private int taskIndex = -1;
  private CloseableIterator<Record> current;
  private long deliveredInTask;
  private boolean renewedThisTask;
  private long rows;

  TaskStream(
      BufferAllocator allocator,
      TableRef ref,
      List<FileScanTask> tasks,
      org.apache.iceberg.Schema projection,
      org.apache.iceberg.Schema output,
      Context context,
      int batchSize,
      Renewer renewer) {
    super(allocator);
    this.ref = ref;
    this.tasks = List.copyOf(tasks);
    this.projection = projection;
    this.positions = positions(projection, output);
    this.arrowSchema = ArrowTypes.toArrow(output);
    this.writers = ArrowTypes.writers(output);
    this.context = context;
    this.batchSize = batchSize;
    this.renewer = renewer;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    List<FieldVector> vectors = root.getFieldVectors();
    int n = 0;
    while (n < batchSize) {
      Record record = nextRecord();
      if (record == null) {
        break;
      }
      for (int c = 0; c < writers.size(); c++) {
        writers.get(c).write(vectors.get(c), n, record.get(positions[c]));
      }
      n++;
    }
    root.setRowCount(n);
    rows += n;
    return n > 0;
  }

  /** Where each output column sits in the read projection (which adds residual columns). */
  private static int[] positions(org.apache.iceberg.Schema read, org.apache.iceberg.Schema output) {
    int[] out = new int[output.columns().size()];
    for (int c = 0; c < out.length; c++) {
      int id = output.columns().get(c).fieldId();
      out[c] = -1;
      for (int i = 0; i < read.columns().size(); i++) {
        if (read.columns().get(i).fieldId() == id) {
          out[c] = i;
        }
      }
      if (out[c] < 0) {
        throw new LakeException(
            ErrorCode.INTERNAL, "projected column missing from the read schema");
      }
    }
    return out;
  }

  /** The next row of this stream, or null at its end; handles renew-and-retry. */
  private Record nextRecord() {
    while (true) {
      try {
        if (current == null) {
          if (taskIndex + 1 >= tasks.size()) {
            return null;
          }
          taskIndex++;
          deliveredInTask = 0;
          renewedThisTask = false;
          current = open(tasks.get(taskIndex));
        }
        if (current.hasNext()) {
          Record r = current.next();
          deliveredInTask++;
          return r;
        }
        closeCurrent();
      } catch (LakeException e) {
        throw e;
      } catch (RuntimeException e) {
        if (!isReadFailure(e)) {
          throw new LakeException(
              ErrorCode.INTERNAL,
              "Reading Iceberg table " + ref + " failed (" + e.getClass().getSimpleName() + ")",
              e);
        }
        retryAfterRenewal(e);
      }
    }
  }

  private void retryAfterRenewal(RuntimeException failure) {
    closeCurrentQuietly();
    if (renewedThisTask) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "Reading a data file of "
              + ref
              + " failed again after renewing the table ("
              + failure.getClass().getSimpleName()
              + "); retry later");
    }
    LOG.info(
        "read of a data file of {} failed ({}); renewing once and retrying",
        ref,
        failure.getClass().getSimpleName());
    renewedThisTask = true;
    context = renewer.renew();
    try {
      CloseableIterator<Record> it = open(tasks.get(taskIndex));
      current = it;
      for (long skipped = 0; skipped < deliveredInTask; skipped++) {
        if (!it.hasNext()) {
          throw new LakeException(
              ErrorCode.INTERNAL, "A data file of " + ref + " changed while it was read");
        }
        it.next();
      }
    } catch (LakeException e) {
      throw e;
    } catch (RuntimeException e) {
      closeCurrentQuietly();
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "Reading a data file of "
              + ref
              + " failed again after renewing the table ("
              + e.getClass().getSimpleName()
              + "); retry later");
    }
  }

  static boolean isReadFailure(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UncheckedIOException
          || t instanceof RuntimeIOException
          || t instanceof NotFoundException
          || t instanceof IOException
          || t.getClass().getName().startsWith("software.amazon.awssdk.")) {
        return true;
      }
    }
    return false;
  }

  /** Mirrors Iceberg's GenericReader.open(FileScanTask) for 1.11. */
  private CloseableIterator<Record> open(FileScanTask task) {
    DeleteFilter<Record> deletes =
        new GenericDeleteFilter(context.io(), task, context.tableSchema(), projection);
    org.apache.iceberg.Schema readSchema = deletes.requiredSchema();
    Map<Integer, ?> partition =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> records =
        FormatModelRegistry.<Record, Object>readBuilder(
                task.file().format(), Record.class, context.io().newInputFile(task.file()))
            .project(readSchema)
            .idToConstant(partition)
            .split(task.start(), task.length())
            .caseSensitive(false)
            .filter(task.residual())
            .build();
    records = deletes.filter(records);
    Expression residual = task.residual();
    if (residual != null && residual != Expressions.alwaysTrue()) {
      InternalRecordWrapper wrapper = new InternalRecordWrapper(readSchema.asStruct());
      Evaluator filter = new Evaluator(readSchema.asStruct(), residual, false);
      records = CloseableIterable.filter(records, r -> filter.eval(wrapper.wrap(r)));
    }
    return records.iterator();
  }

  private void closeCurrent() {
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        current = null;
      }
    }
  }

  private void closeCurrentQuietly() {
    try {
      closeCurrent();
    } catch (RuntimeException e) {
      LOG.debug("closing a failed task reader", e);
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  /** Rows delivered so far (for tests and metrics). */
  long rows() {
    return rows;
  }

  @Override
  protected void closeReadSource() {
    closeCurrentQuietly();
  }

  @Override
  protected Schema readSchema() {
    return arrowSchema;
  }
}
