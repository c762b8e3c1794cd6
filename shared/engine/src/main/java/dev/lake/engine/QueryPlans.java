package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The engine's cache of statement plans, and the lookup of the reader of each snapshot. Resolving a
 * plan always asks the readers for the input schemas first, which is also the fail-closed check of
 * the snapshots: a reader throws SNAPSHOT_GONE for a version that is gone, cached plan or not.
 */
final class QueryPlans {
  /**
   * Bound of the plan cache, in characters of statement text (+1,024 per plan): a plan holds the
   * statement's parse tree, a few times the text's size, so this keeps it to tens of MiB.
   */
  static final long MAX_PLAN_WEIGHT = 4L << 20;

  /**
   * A plan's key: the statement's parse tree ({@link StatementKeys}: comments, spacing and keyword
   * case do not enter it) and the snapshots. Texts that parse to the same tree render to the same
   * SQL, so a never-seen text that differs only in a comment shares the plan.
   */
  private record PlanKey(String statement, SnapshotSet snapshots) {}

  /** A statement text's parsed form and its tree key, kept per exact text. */
  private record Parsed(StatementRewriter statement, String key) {}

  private final List<TableReader> readers;
  private final SqlParser parser;
  private final int batchSize;
  private final int scanParallelism;

  /** Told of each snapshot a reader reported gone, so that no cached copy of it outlives it. */
  private final Consumer<Snapshot> onGone;

  private final Cache<PlanKey, QueryPlan> plans =
      Caffeine.newBuilder()
          .maximumWeight(MAX_PLAN_WEIGHT)
          .<PlanKey, QueryPlan>weigher((k, p) -> p.textLength() + 1024)
          .build();

  private final Cache<AdmittedQuery, Parsed> parsed =
      Caffeine.newBuilder()
          .maximumWeight(MAX_PLAN_WEIGHT)
          .<AdmittedQuery, Parsed>weigher((q, p) -> q.sql().length() + 128)
          .build();

  QueryPlans(
      List<TableReader> readers,
      SqlParser parser,
      int batchSize,
      int scanParallelism,
      Consumer<Snapshot> onGone) {
    this.readers = List.copyOf(requireNonNull(readers, "readers is null"));
    this.parser = requireNonNull(parser, "parser is null");
    this.batchSize = batchSize;
    this.scanParallelism = scanParallelism;
    this.onGone = requireNonNull(onGone, "onGone is null");
  }

  /**
   * The plan of {@code query} over {@code snapshots}, built on first use; throws SNAPSHOT_GONE
   * (after telling {@code onGone}) when a reader no longer has one of the snapshots.
   */
  QueryPlan resolve(AdmittedQuery query, SnapshotSet snapshots) {
    Map<TableRef, Schema> schemas = schemas(query, snapshots);
    Parsed p =
        parsed.get(
            query,
            q -> {
              StatementRewriter statement = StatementRewriter.parse(q, parser);
              return new Parsed(statement, StatementKeys.of(statement));
            });
    return plans.get(
        new PlanKey(p.key(), snapshots),
        k -> {
          ScanAnalysis analysis = new ScanAnalysis(p.statement().statement());
          return QueryPlan.build(
              p.statement(),
              analysis,
              schemas,
              parser,
              batchSize,
              scanParallelism,
              query.sql().length());
        });
  }

  /** The reader that supports {@code snapshot}; UNSUPPORTED when none does. */
  TableReader resolveReader(Snapshot snapshot) {
    for (TableReader r : readers) {
      if (r.supports(snapshot)) {
        return r;
      }
    }
    throw new LakeException(
        ErrorCode.UNSUPPORTED, "No reader for " + snapshot.getClass().getSimpleName());
  }

  /** Drops every cached plan (on close). */
  void invalidateAll() {
    plans.invalidateAll();
    parsed.invalidateAll();
  }

  private Map<TableRef, Schema> schemas(AdmittedQuery query, SnapshotSet snapshots) {
    Map<TableRef, Schema> schemas = new LinkedHashMap<>();
    for (TableRef ref : query.tables()) {
      Snapshot snapshot = snapshots.resolve(ref);
      try {
        // also the fail-closed check: a reader throws SNAPSHOT_GONE for a version that is gone
        schemas.put(ref, resolveReader(snapshot).schema(ref, snapshot));
      } catch (LakeException e) {
        if (e.code() == ErrorCode.SNAPSHOT_GONE) {
          onGone.accept(snapshot);
        }
        throw e;
      }
    }
    return schemas;
  }
}
