package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link JobStore} on one DynamoDB table (partition key {@code id}). Every write is a conditional
 * PutItem with {@code ReturnValuesOnConditionCheckFailure=ALL_OLD}:
 *
 * <ul>
 *   <li>condition failed and the old item is exactly what we wrote → an earlier, retried attempt of
 *       this very call applied: {@code Settled(applied)};
 *   <li>condition failed otherwise → a clean {@code Conflict} with the winner's record;
 *   <li>client-side failure or timeout (the write may or may not have landed) → re-read with a
 *       consistent read and settle: exactly our record → applied; another version → not applied;
 *       still the expected version → the write did not land, try again (bounded).
 * </ul>
 *
 * The {@code ttl} attribute (epoch seconds) lets DynamoDB reap expired jobs; reads never trust that
 * it did, callers check {@link Job#expired}.
 */
public final class DynamoDbJobStore implements JobStore {
  private static final int UNKNOWN_ATTEMPTS = 3;

  private final DynamoDbClient dynamo;
  private final String table;

  public DynamoDbJobStore(DynamoDbClient dynamo, String table) {
    this.dynamo = requireNonNull(dynamo, "dynamo is null");
    this.table = requireNonNull(table, "table is null");
  }

  /** Creates the job table (on-demand billing) for emulators and development accounts. */
  public static void createTable(DynamoDbClient dynamo, String table) {
    DynamoDbTables.create(dynamo, table, "id");
    dynamo.updateTimeToLive(
        b -> b.tableName(table).timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true)));
  }

  @Override
  public CreateResult createIfAbsent(Job job) {
    requireNonNull(job, "job is null");
    for (int i = 0; i < UNKNOWN_ATTEMPTS; i++) {
      try {
        dynamo.putItem(put(job).conditionExpression("attribute_not_exists(id)").build());
        return new CreateResult.Created(job);
      } catch (ConditionalCheckFailedException e) {
        Job old = e.hasItem() ? fromItem(e.item()) : find(job.id()).orElseThrow(() -> e);
        return old.equals(job) ? new CreateResult.Created(old) : new CreateResult.Existing(old);
      } catch (SdkClientException e) {
        Optional<Job> current = findQuietly(job.id());
        if (current.isPresent()) {
          return current.get().equals(job)
              ? new CreateResult.Created(current.get())
              : new CreateResult.Existing(current.get());
        }
      } catch (SdkException e) {
        throw unavailable(e);
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
      return item == null || item.isEmpty() ? Optional.empty() : Optional.of(fromItem(item));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  @Override
  public CasResult compareAndSet(long expectedVersion, Job next) {
    JobStore.checkCas(expectedVersion, next);
    for (int i = 0; i < UNKNOWN_ATTEMPTS; i++) {
      try {
        dynamo.putItem(
            put(next)
                .conditionExpression("#v = :expected")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(
                    Map.of(":expected", AttributeValue.fromN(Long.toString(expectedVersion))))
                .build());
        return new CasResult.Applied(next);
      } catch (ConditionalCheckFailedException e) {
        if (!e.hasItem() || e.item().isEmpty()) {
          throw new IllegalStateException("no job " + next.id() + " to compare-and-set");
        }
        Job old = fromItem(e.item());
        return old.equals(next) ? new CasResult.Settled(old, true) : new CasResult.Conflict(old);
      } catch (SdkClientException e) {
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
      } catch (SdkException e) {
        throw unavailable(e);
      }
    }
    throw new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job store did not answer; the job state is unchanged");
  }

  private Optional<Job> findQuietly(String id) {
    try {
      return find(id);
    } catch (LakeException e) {
      return Optional.empty();
    }
  }

  private PutItemRequest.Builder put(Job job) {
    return PutItemRequest.builder()
        .tableName(table)
        .item(toItem(job))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
  }

  static Map<String, AttributeValue> toItem(Job job) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("id", AttributeValue.fromS(job.id()));
    m.put("tenant", AttributeValue.fromS(job.tenant()));
    m.put("principal", AttributeValue.fromS(job.principal()));
    m.put("state", AttributeValue.fromS(job.state().name()));
    m.put("version", n(job.version()));
    job.lease()
        .ifPresent(
            l -> {
              m.put("leaseOwner", AttributeValue.fromS(l.owner()));
              m.put("leaseExpiresAt", n(l.expiresAt().toEpochMilli()));
            });
    m.put("attempt", n(job.attempt()));
    job.queryId().ifPresent(q -> m.put("queryId", AttributeValue.fromS(q)));
    m.put("fingerprint", AttributeValue.fromS(job.fingerprint()));
    m.put("envelope", AttributeValue.fromB(SdkBytes.fromByteArray(job.envelope())));
    m.put("progress", AttributeValue.fromN(Double.toString(job.progress())));
    m.put("rowsWritten", n(job.rowsWritten()));
    job.manifestKey().ifPresent(k -> m.put("manifestKey", AttributeValue.fromS(k)));
    job.failure()
        .ifPresent(
            f -> {
              m.put("errorCode", AttributeValue.fromS(f.code().name()));
              m.put("errorMessage", AttributeValue.fromS(f.message()));
            });
    m.put("createdAt", n(job.createdAt().toEpochMilli()));
    m.put("updatedAt", n(job.updatedAt().toEpochMilli()));
    m.put("expiresAt", n(job.expiresAt().toEpochMilli()));
    m.put("ttl", n(job.expiresAt().getEpochSecond() + 1));
    return m;
  }

  static Job fromItem(Map<String, AttributeValue> m) {
    Optional<Job.Lease> lease =
        m.containsKey("leaseOwner")
            ? Optional.of(new Job.Lease(s(m, "leaseOwner"), instant(m, "leaseExpiresAt")))
            : Optional.empty();
    Optional<Job.Failure> failure =
        m.containsKey("errorCode")
            ? Optional.of(
                new Job.Failure(ErrorCode.valueOf(s(m, "errorCode")), s(m, "errorMessage")))
            : Optional.empty();
    return new Job(
        s(m, "id"),
        s(m, "tenant"),
        s(m, "principal"),
        JobState.valueOf(s(m, "state")),
        l(m, "version"),
        lease,
        (int) l(m, "attempt"),
        Optional.ofNullable(m.get("queryId")).map(AttributeValue::s),
        s(m, "fingerprint"),
        m.get("envelope").b().asByteArray(),
        Double.parseDouble(m.get("progress").n()),
        l(m, "rowsWritten"),
        Optional.ofNullable(m.get("manifestKey")).map(AttributeValue::s),
        failure,
        instant(m, "createdAt"),
        instant(m, "updatedAt"),
        instant(m, "expiresAt"));
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private static String s(Map<String, AttributeValue> m, String name) {
    AttributeValue v = m.get(name);
    if (v == null || v.s() == null) {
      throw new LakeException(ErrorCode.INTERNAL, "Job record lacks attribute " + name);
    }
    return v.s();
  }

  private static long l(Map<String, AttributeValue> m, String name) {
    AttributeValue v = m.get(name);
    if (v == null || v.n() == null) {
      throw new LakeException(ErrorCode.INTERNAL, "Job record lacks attribute " + name);
    }
    return Long.parseLong(v.n());
  }

  private static Instant instant(Map<String, AttributeValue> m, String name) {
    return Instant.ofEpochMilli(l(m, name));
  }

  private static LakeException unavailable(SdkException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job store is unavailable; retry later", e);
  }
}
