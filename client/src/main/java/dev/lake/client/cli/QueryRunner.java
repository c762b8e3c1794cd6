package dev.lake.client.cli;

import static java.util.Objects.requireNonNull;

import dev.lake.client.LakeClient;
import dev.lake.client.QueryHandle;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Runs one statement and writes its result: interactively, or durably with a progress bar. */
final class QueryRunner {
  private final LakeClient client;
  private final PrintStream stdout;

  QueryRunner(LakeClient client, PrintStream stdout) {
    this.client = requireNonNull(client, "client is null");
    this.stdout = requireNonNull(stdout, "stdout is null");
  }

  /** Runs {@code sql}; returns the number of rows written. */
  long run(String sql, OutputFormat format, Optional<Path> output, boolean durable)
      throws IOException {
    try (Output out = output.isPresent() ? Output.file(output.get()) : Output.stdout(stdout);
        ArrowReader reader = open(sql, durable)) {
      long rows = format.writer(client.allocator()).write(reader, out);
      out.commit();
      return rows;
    }
  }

  /** Runs {@code EXPLAIN sql} and prints the plan text as it is. */
  void explain(String sql, boolean durable) throws IOException {
    try (ArrowReader reader = open("EXPLAIN " + sql, durable)) {
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
    }
  }

  private ArrowReader open(String sql, boolean durable) {
    if (!durable) {
      return client.query(sql);
    }
    QueryHandle handle = client.submit(sql);
    ProgressBar bar = ProgressBar.onStderr("running");
    try {
      return handle.reader(bar);
    } finally {
      bar.done();
    }
  }
}
