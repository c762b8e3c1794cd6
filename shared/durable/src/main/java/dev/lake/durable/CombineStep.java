package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.EmptyArrowReader;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The combine step of a fan-out whose children wrote partial results ({@code
 * SplitPlan#combineSql}): every child's Arrow parts, in split order, are read through the engine's
 * private codec ({@link ParquetCodec#combine}, never a tenant's engine session), and its result is
 * written as the parent's own parts in the format the client asked for. The result must have the
 * statement's planned columns (names and types); anything else is a bug and fails the query.
 */
final class CombineStep {
  private final JobProcessor p;

  CombineStep(JobProcessor p) {
    this.p = requireNonNull(p, "p is null");
  }

  /** What the step wrote: the parent's parts and their schema. */
  record Combined(List<PartRef> parts, String schemaJson) {
    Combined {
      parts = List.copyOf(parts);
      requireNonNull(schemaJson, "schemaJson is null");
    }
  }

  /**
   * Runs {@code sql} over the parts of {@code partials} (the children's manifests, in split order)
   * and writes the result under {@code directory} as {@code format}; {@code planned} is the
   * statement's result schema.
   */
  Combined run(
      String sql,
      List<ResultManifest> partials,
      Schema planned,
      ResultFormat format,
      String directory) {
    ParquetCodec codec =
        p.engine
            .parquet()
            .orElseThrow(
                () ->
                    new LakeException(
                        ErrorCode.UNSUPPORTED, "This worker cannot combine a query's splits"));
    ResultReader parts = new ResultReader(p.objects, p.layout.bounds());
    List<ArrowReader> inputs = new ArrayList<>();
    try {
      // an input of no rows first, so that a combine over children without parts still has its
      // columns (an aggregate over no rows is one row; a grouped one is none)
      inputs.add(new EmptyArrowReader(p.allocator, partials.get(0).schema()));
      for (ResultManifest m : partials) {
        for (PartRef part : m.parts()) {
          inputs.add(parts.open(part.key(), part.bytes(), p.allocator));
        }
      }
    } catch (RuntimeException e) {
      inputs.forEach(CombineStep::closeQuietly);
      throw e;
    }
    try (ArrowReader combined = codec.combine(sql, inputs, p.allocator)) {
      Schema schema = combined.getVectorSchemaRoot().getSchema();
      if (!sameColumns(schema, planned)) {
        throw new LakeException(
            ErrorCode.INTERNAL,
            "The combined result of a fanned-out query has columns "
                + schema
                + " where "
                + planned
                + " were planned");
      }
      List<PartRef> written =
          new ResultWriter(p.objects, p.layout.bounds(), p.engine.parquet())
              .writeParts(directory, combined, format, p.allocator, (rows, n) -> {});
      return new Combined(written, schema.toJson());
    } catch (IOException e) {
      throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Combining the splits failed", e);
    }
  }

  private static boolean sameColumns(Schema actual, Schema planned) {
    List<Field> a = actual.getFields();
    List<Field> b = planned.getFields();
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).getName().equals(b.get(i).getName())
          || !a.get(i).getType().equals(b.get(i).getType())) {
        return false;
      }
    }
    return true;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // releasing after a failure; the failure is what matters
    }
  }
}
