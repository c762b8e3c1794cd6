package dev.lake.client.cli;

import static java.util.Objects.requireNonNull;

import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientException;
import dev.lake.client.QueryHandle;
import dev.lake.client.ResultReader;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs one statement and writes its result: interactively, or durably with a progress bar. The
 * running statement can be {@linkplain #cancel() cancelled} from another thread (the shell's Ctrl-C
 * handler): while the statement is being planned or a durable one is awaited, the running thread is
 * interrupted (gRPC then cancels the blocking call); while its result streams, the stream is
 * cancelled; a durable query is also cancelled on the server.
 */
final class QueryRunner {
  private final LakeClient client;
  private final PrintStream stdout;

  // the statement now running; guarded by this
  private Thread caller;
  private ResultReader reading;
  private QueryHandle durableJob;
  private boolean cancelled;

  QueryRunner(LakeClient client, PrintStream stdout) {
    this.client = requireNonNull(client, "client is null");
    this.stdout = requireNonNull(stdout, "stdout is null");
  }

  /** The server the statements go to. */
  URI server() {
    return client.config().url();
  }

  /** Runs {@code sql}; returns the number of rows written. */
  long run(String sql, OutputFormat format, Optional<Path> output, boolean durable)
      throws IOException {
    try (Output out = output.isPresent() ? Output.file(output.get()) : Output.stdout(stdout);
        ResultReader reader = open(sql, durable)) {
      long rows = format.writer(client.allocator()).write(reader, out);
      out.commit();
      return rows;
    } finally {
      finished();
    }
  }

  /** Runs {@code EXPLAIN sql} and prints the plan text as it is. */
  void explain(String sql, boolean durable) throws IOException {
    try (ResultReader reader = open("EXPLAIN " + sql, durable)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<FieldVector> vectors = root.getFieldVectors();
      FieldVector plan = vectors.get(vectors.size() - 1);
      while (reader.loadNextBatch()) {
        for (int r = 0; r < root.getRowCount(); r++) {
          String text = Values.text(plan, r);
          stdout.println(text == null ? "" : text);
        }
      }
      stdout.flush();
    } finally {
      finished();
    }
  }

  /**
   * Cancels the statement now running, if any (from any thread). Its {@link #run} then throws a
   * {@link LakeClientException} with status {@code CANCELLED}.
   */
  void cancel() {
    QueryHandle job;
    synchronized (this) {
      if (caller == null) {
        return;
      }
      cancelled = true;
      if (reading != null) {
        reading.cancel();
      } else {
        caller.interrupt();
      }
      job = durableJob;
    }
    if (job != null) {
      try {
        job.cancel();
      } catch (LakeClientException e) {
        // the job already ended, or the server is gone: nothing left to stop
      }
    }
  }

  /** Whether the last statement ended because it was {@linkplain #cancel() cancelled}. */
  synchronized boolean wasCancelled() {
    return cancelled;
  }

  private ResultReader open(String sql, boolean durable) {
    synchronized (this) {
      // an interrupt left over from before (JLine interrupts its reading thread on a Ctrl-C that
      // came while the line was being accepted) is not a cancel of this statement
      Thread.interrupted();
      caller = Thread.currentThread();
      cancelled = false;
    }
    ResultReader reader;
    try {
      reader = durable ? awaitDurable(sql) : client.query(sql);
    } catch (RuntimeException e) {
      throw cancelledOr(e);
    }
    synchronized (this) {
      Thread.interrupted(); // a cancel's interrupt that came after the call returned
      if (cancelled) {
        reader.cancel();
      }
      reading = reader;
    }
    return reader;
  }

  private ResultReader awaitDurable(String sql) {
    QueryHandle handle = client.submit(sql);
    synchronized (this) {
      durableJob = handle;
      if (cancelled) {
        throw cancelledError();
      }
    }
    ProgressBar bar = ProgressBar.onStderr("running");
    try {
      ResultReader reader = handle.reader(bar);
      bar.done();
      return reader;
    } finally {
      bar.end();
    }
  }

  /** An interrupt surfaces in many shapes (gRPC CANCELLED, a wrapped InterruptedException). */
  private RuntimeException cancelledOr(RuntimeException e) {
    synchronized (this) {
      Thread.interrupted();
      return cancelled ? cancelledError() : e;
    }
  }

  private static LakeClientException cancelledError() {
    return LakeClientException.cancelled("The statement was cancelled");
  }

  private synchronized void finished() {
    Thread.interrupted();
    caller = null;
    reading = null;
    durableJob = null;
  }
}
