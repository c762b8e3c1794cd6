package dev.lake.aws;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The DynamoDB item of a {@link Job} record (partition key {@code id}) and back. Times are epoch
 * milliseconds; {@code ttl} (epoch seconds, just past {@code expiresAt}) lets DynamoDB reap expired
 * jobs. A stored item that lacks a required attribute is INTERNAL: the table holds only records
 * this class wrote.
 */
final class DynamoDbJobItems {
  private DynamoDbJobItems() {}

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
}
