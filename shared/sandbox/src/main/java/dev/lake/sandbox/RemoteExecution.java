package dev.lake.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * An execution running in an engine process: its result is the Arrow IPC stream on the call's
 * connection, read as the caller pulls it, after the engine's header frame. The stream counts as
 * complete only when the engine's ok trailer follows the end-of-stream marker; an error trailer
 * throws that error, and a connection that breaks (process killed) throws why it broke, never a
 * clean end.
 */
final class RemoteExecution implements QueryExecution {
  private final EngineCall call;
  private final Reader reader;
  private volatile QueryStats stats = QueryStats.NONE;

  RemoteExecution(EngineCall call, BufferAllocator allocator) {
    this.call = call;
    this.reader = new Reader(allocator);
  }

  @Override
  public ArrowReader reader() {
    return reader;
  }

  @Override
  public void cancel() {
    call.stop(new LakeException(ErrorCode.CANCELLED, "The query was cancelled"), "was cancelled");
  }

  @Override
  public QueryStats stats() {
    return stats;
  }

  @Override
  public void close() {
    call.abandon();
    try {
      reader.close(false);
    } catch (IOException e) {
      // the vectors are released; the connection is the call's
    }
  }

  private final class Reader extends ArrowStreamReader {
    Reader(BufferAllocator allocator) {
      super(call.channel(), allocator);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (call.finished()) {
        return false;
      }
      try {
        if (super.loadNextBatch()) {
          return true;
        }
      } catch (LakeException e) {
        throw e; // the engine's header error, or why the connection broke (initialize)
      } catch (IOException | RuntimeException e) {
        throw call.broken(e);
      }
      JsonNode trailer = call.reply();
      QueryStats engine = Wire.stats(trailer); // throws the engine's error
      // the process's resident peak while the statement ran stands for its engine memory
      stats =
          new QueryStats(
              engine.scannedBytes(),
              engine.resultBytes(),
              engine.arrowPeakBytes(),
              Math.max(engine.engineMemoryBytes(), call.peakResidentBytes()),
              engine.spillBytes());
      call.finish();
      return false;
    }

    /**
     * Reads the engine's header (the statement started, or the error it failed with) and the
     * stream's schema, on the first read: execution itself returns at once, so the caller can
     * cancel a statement that computes its first batch for a long time (a client leaving then frees
     * its slot within the grace).
     */
    @Override
    protected void initialize() throws IOException {
      try {
        Wire.check(call.reply());
        super.initialize();
      } catch (LakeException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        throw call.broken(e);
      }
    }

    @Override
    protected void closeReadSource() {
      // the connection belongs to the call, which closes it once the engine is done
    }
  }
}
