package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * {@link JobStore} on one DynamoDB table (partition key {@code id}). Every write is one
 * TransactWriteItems: the record's conditional Put with {@code
 * ReturnValuesOnConditionCheckFailure=ALL_OLD} plus the accounting updates of {@link
 * DynamoDbJobLedger} (items of the same table). Outcomes:
 *
 * <ul>
 *   <li>condition failed and the old item is exactly what we wrote → an earlier, retried attempt of
 *       this very call applied: {@code Settled(applied)};
 *   <li>condition failed otherwise → a clean {@code Conflict} with the winner's record;
 *   <li>client-side failure or timeout (the write may or may not have landed) → re-read with a
 *       consistent read and settle: exactly our record → applied; another version → not applied;
 *       still the expected version → the write did not land, try again (bounded);
 *   <li>the record's condition held but an accounting guard failed → a bound is full: the ledger
 *       prunes stale ids once and the write is tried again, else {@code Refused} with the count;
 *   <li>a transaction conflict (another transaction on one of the items in flight) → retried after
 *       a short jittered back-off (bounded), then {@code EXTERNAL_UNAVAILABLE}.
 * </ul>
 *
 * The {@code ttl} attribute (epoch seconds) lets DynamoDB reap expired jobs; reads never trust that
 * it did, callers check {@link Job#expired}.
 */
public final class DynamoDbJobStore implements JobStore {
  private static final int UNKNOWN_ATTEMPTS = 3;
  private static final int MAX_CONFLICTS = 8;

  private final DynamoDbClient dynamo;
  private final Clock clock;
  private final String table;
  private final DynamoDbJobLedger ledger;

  public DynamoDbJobStore(DynamoDbClient dynamo, String table) {
    this(dynamo, table, Clock.systemUTC());
  }

  /** With the clock that paces pruning of the accounting sets. */
  public DynamoDbJobStore(DynamoDbClient dynamo, String table, Clock clock) {
    this.dynamo = requireNonNull(dynamo, "dynamo is null");
    this.table = requireNonNull(table, "table is null");
    this.ledger = new DynamoDbJobLedger(dynamo, table, clock);
    this.clock = clock;
  }

  /**
   * Ends an expired, unfinished job found while pruning ({@link Job#expire}), a terminal write that
   * releases its places and is never refused. Whether this call wrote it.
   */
  private boolean endExpired(Job job) {
    return compareAndSet(job.version(), job.expire(clock.instant())).applied();
  }

  /** Creates the job table (on-demand billing) for emulators and development accounts. */
  public static void createTable(DynamoDbClient dynamo, String table) {
    DynamoDbTables.create(dynamo, table, "id");
    dynamo.updateTimeToLive(
        b -> b.tableName(table).timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true)));
  }

  @Override
  public CreateResult createIfAbsent(Job job, JobLimits limits) {
    requireNonNull(job, "job is null");
    requireNonNull(limits, "limits is null");
    Write write = new Write(job, "attribute_not_exists(id)", Map.of(), Map.of(), limits);
    for (int i = 0; i < UNKNOWN_ATTEMPTS; i++) {
      Write.Result result = write.attempt();
      if (result instanceof Write.Done) {
        return new CreateResult.Created(job);
      }
      if (result instanceof Write.RecordCondition lost) {
        Job old = lost.old().or(() -> find(job.id())).orElseThrow(this::vanished);
        return old.equals(job) ? new CreateResult.Created(old) : new CreateResult.Existing(old);
      }
      if (result instanceof Write.Over over) {
        return new CreateResult.Refused(over.reached());
      }
      // outcome unknown (timeout, connection lost after sending): settle by re-reading
      Optional<Job> current = findQuietly(job.id());
      if (current.isPresent()) {
        return current.get().equals(job)
            ? new CreateResult.Created(current.get())
            : new CreateResult.Existing(current.get());
      }
    }
    throw new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job store did not answer; submit again");
  }

  @Override
  public Optional<Job> find(String id) {
    requireNonNull(id, "id is null");
    try {
      var item =
          dynamo
              .getItem(
                  b ->
                      b.tableName(table)
                          .key(Map.of("id", AttributeValue.fromS(id)))
                          .consistentRead(true))
              .item();
      return item == null || item.isEmpty()
          ? Optional.empty()
          : Optional.of(DynamoDbJobItems.fromItem(item));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  @Override
  public CasResult compareAndSet(long expectedVersion, Job next, JobLimits limits) {
    JobStore.checkCas(expectedVersion, next);
    requireNonNull(limits, "limits is null");
    Write write =
        new Write(
            next,
            "#v = :expected",
            Map.of("#v", "version"),
            Map.of(":expected", AttributeValue.fromN(Long.toString(expectedVersion))),
            limits);
    for (int i = 0; i < UNKNOWN_ATTEMPTS; i++) {
      Write.Result result = write.attempt();
      if (result instanceof Write.Done) {
        return new CasResult.Applied(next);
      }
      if (result instanceof Write.RecordCondition lost) {
        // a clean lost race, unless the stored record is ours: an SDK retry of an applied write
        Job old =
            lost.old()
                .or(() -> find(next.id()))
                .orElseThrow(
                    () -> new IllegalStateException("no job " + next.id() + " to compare-and-set"));
        return old.equals(next) ? new CasResult.Settled(old, true) : new CasResult.Conflict(old);
      }
      if (result instanceof Write.Over over) {
        Job current = find(next.id()).orElseThrow(this::vanished);
        if (current.version() != expectedVersion) {
          return current.equals(next)
              ? new CasResult.Settled(current, true)
              : new CasResult.Conflict(current);
        }
        return new CasResult.Refused(current, over.reached());
      }
      // outcome unknown (timeout, connection lost after sending): settle by re-reading
      Optional<Job> current = findQuietly(next.id());
      if (current.isPresent()) {
        Job c = current.get();
        if (c.equals(next)) {
          return new CasResult.Settled(c, true);
        }
        if (c.version() != expectedVersion) {
          return new CasResult.Settled(c, false);
        }
      }
      // still at the expected version (or unreadable): the write did not land; try again
    }
    throw new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job store did not answer; the job state is unchanged");
  }

  @Override
  public JobLimits.Usage usage(String tenant) {
    requireNonNull(tenant, "tenant is null");
    try {
      return ledger.usage(tenant);
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  /**
   * One conditional job write with its accounting, as one transaction: the record's Put (with
   * {@code condition}) and the ledger's set updates. {@link #attempt} answers what happened,
   * keeping a lost race on the record, a full bound and an unknown outcome apart; a transaction
   * conflict (another write on one of the items in flight) is retried here with a short jittered
   * back-off.
   */
  private final class Write {
    sealed interface Result {}

    /** The transaction applied. */
    record Done() implements Result {}

    /** The record's condition failed; {@code old} is the stored record when DynamoDB sent it. */
    record RecordCondition(Optional<Job> old) implements Result {}

    /** A bound is full (and stayed full after pruning); nothing was written. */
    record Over(JobLimits.Reached reached) implements Result {}

    /** The client cannot tell whether the transaction applied. */
    record Unknown() implements Result {}

    private final Job job;
    private final JobLimits limits;
    private final List<TransactWriteItem> items;

    Write(
        Job job,
        String condition,
        Map<String, String> names,
        Map<String, AttributeValue> values,
        JobLimits limits) {
      this.job = job;
      this.limits = limits;
      Put.Builder put =
          Put.builder()
              .tableName(table)
              .item(DynamoDbJobItems.toItem(job))
              .conditionExpression(condition)
              .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
      if (!names.isEmpty()) {
        put.expressionAttributeNames(names).expressionAttributeValues(values);
      }
      List<TransactWriteItem> all = new ArrayList<>();
      all.add(TransactWriteItem.builder().put(put.build()).build());
      all.addAll(ledger.updates(job, limits));
      this.items = List.copyOf(all);
    }

    Result attempt() {
      boolean pruned = false;
      for (int conflicts = 0; ; conflicts++) {
        try {
          dynamo.transactWriteItems(b -> b.transactItems(items));
          return new Done();
        } catch (TransactionCanceledException e) {
          List<CancellationReason> reasons =
              e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
          String record = reasons.isEmpty() ? "" : String.valueOf(reasons.get(0).code());
          if (record.equals("ConditionalCheckFailed")) {
            CancellationReason r = reasons.get(0);
            return new RecordCondition(
                r.hasItem() && !r.item().isEmpty()
                    ? Optional.of(DynamoDbJobItems.fromItem(r.item()))
                    : Optional.empty());
          }
          boolean full =
              reasons.stream().skip(1).anyMatch(c -> "ConditionalCheckFailed".equals(c.code()));
          if (full) {
            Optional<JobLimits.Reached> reached = ledger.reached(job, limits);
            if (reached.isPresent()
                && (pruned
                    || !ledger.prune(
                        reached.get(), id -> find(id), DynamoDbJobStore.this::endExpired))) {
              return new Over(reached.get());
            }
            pruned = pruned || reached.isPresent();
          } else if (conflicts >= MAX_CONFLICTS) {
            throw new LakeException(
                ErrorCode.EXTERNAL_UNAVAILABLE, "The job store is busy; retry later", e);
          }
          backOff(conflicts);
        } catch (SdkClientException e) {
          return new Unknown();
        } catch (SdkException e) {
          throw unavailable(e);
        }
      }
    }
  }

  private static void backOff(int attempt) {
    long millis = ThreadLocalRandom.current().nextLong(5, 20L << Math.min(attempt, 4));
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "Interrupted while writing a job");
    }
  }

  private IllegalStateException vanished() {
    return new IllegalStateException("a job record vanished during its write");
  }

  private Optional<Job> findQuietly(String id) {
    try {
      return find(id);
    } catch (LakeException e) {
      return Optional.empty();
    }
  }

  private static LakeException unavailable(SdkException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job store is unavailable; retry later", e);
  }
}
