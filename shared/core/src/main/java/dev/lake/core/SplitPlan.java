package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * How a statement runs as durable fan-out ({@link QueryEngine#splits}): {@code childSql} runs once
 * over each element of {@code splits}. Without {@code combineSql} the children's results,
 * concatenated in split order, are the statement's result (projection and filter). With it, the
 * children's results are partial (each split's own {@code LIMIT}, or partial aggregates), and the
 * statement's result is {@code combineSql} run over all of them: a statement lake writes itself
 * (never the tenant's text) that reads one relation, {@code partials}, the children's rows in split
 * order, and yields exactly the statement's columns and types ({@link
 * dev.lake.core.job.ParquetCodec#combine}). {@code childSql} binds the statement's parameters as
 * the statement does.
 */
public record SplitPlan(List<SnapshotSet> splits, String childSql, Optional<String> combineSql) {
  /** The relation a combine statement reads. */
  public static final String PARTIALS = "partials";

  public SplitPlan {
    splits = List.copyOf(requireNonNull(splits, "splits is null"));
    requireNonNull(childSql, "childSql is null");
    requireNonNull(combineSql, "combineSql is null");
    if (splits.isEmpty()) {
      throw new IllegalArgumentException("a split plan has at least one split");
    }
    if (splits.size() == 1 && combineSql.isPresent()) {
      throw new IllegalArgumentException("a single split has nothing to combine");
    }
  }

  /** {@code query} over {@code snapshots} as one piece: it does not fan out. */
  public static SplitPlan single(AdmittedQuery query, SnapshotSet snapshots) {
    return new SplitPlan(List.of(snapshots), query.sql(), Optional.empty());
  }

  /** Whether the statement fans out (more than one split). */
  public boolean fansOut() {
    return splits.size() > 1;
  }
}
