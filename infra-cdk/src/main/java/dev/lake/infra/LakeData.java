package dev.lake.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.SecretValue;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * The state of a deployment: two KMS keys (storage encryption; ticket data keys), the result bucket
 * and its access-log bucket, the job and registry tables, the job queue with its dead-letter queue,
 * and the principals secret. Everything that holds data is retained when the stack is deleted.
 */
final class LakeData extends Construct {
  final Key storageKey;
  final Key ticketKey;
  final Bucket accessLogs;
  final Bucket results;
  final Table jobs;
  final Table registry;
  final Queue queue;
  final Queue deadLetters;
  final Secret principals;

  LakeData(Construct scope, String id, LakeSettings settings) {
    super(scope, id);
    storageKey =
        Key.Builder.create(this, "StorageKey")
            .description("lake: encrypts result parts, job records, queue messages and alarms")
            .enableKeyRotation(true)
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();
    // a key of its own: only the ticket path (GenerateDataKey/Decrypt with an encryption context)
    // uses it, so its grants and audit trail stay separate from storage encryption
    ticketKey =
        Key.Builder.create(this, "TicketKey")
            .description("lake: wraps the ticket data keys (" + LakeEnv.KMS_KEY_ID + ")")
            .enableKeyRotation(true)
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();
    accessLogs =
        Bucket.Builder.create(this, "AccessLogs")
            // S3 server access logs and NLB access logs can only be delivered with SSE-S3
            .encryption(BucketEncryption.S3_MANAGED)
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .enforceSsl(true)
            .objectOwnership(ObjectOwnership.BUCKET_OWNER_PREFERRED)
            .lifecycleRules(
                List.of(
                    LifecycleRule.builder()
                        .id("ExpireAccessLogs")
                        .expiration(Duration.days(90))
                        .abortIncompleteMultipartUploadAfter(Duration.days(1))
                        .build()))
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();
    NagSuppressions.addResourceSuppressions(
        accessLogs,
        List.of(
            NagPackSuppression.builder()
                .id("AwsSolutions-S1")
                .reason(
                    "This is the access-log bucket itself; logging it into itself would loop and"
                        + " another bucket would only move the question.")
                .build()));
    results =
        Bucket.Builder.create(this, "Results")
            .encryption(BucketEncryption.KMS)
            .encryptionKey(storageKey)
            .bucketKeyEnabled(true)
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .enforceSsl(true)
            .serverAccessLogsBucket(accessLogs)
            .serverAccessLogsPrefix("results-bucket/")
            .lifecycleRules(
                List.of(
                    LifecycleRule.builder()
                        .id("ExpireResults")
                        .prefix(LakeEnv.RESULTS + "/")
                        .expiration(Duration.days(settings.resultExpiryDays()))
                        .build(),
                    LifecycleRule.builder()
                        .id("AbortIncompleteUploads")
                        .abortIncompleteMultipartUploadAfter(Duration.days(1))
                        .build()))
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();
    jobs = table("Jobs", "id").timeToLiveAttribute("ttl").build();
    registry = table("Registry", "name").build();
    deadLetters =
        Queue.Builder.create(this, "JobDeadLetters")
            .encryption(QueueEncryption.KMS)
            .encryptionMasterKey(storageKey)
            .enforceSsl(true)
            .retentionPeriod(Duration.days(14))
            .build();
    // a standard queue, never FIFO: lake sends every job with MessageGroupId = its tenant, which
    // makes a standard queue an SQS fair queue (quiet tenants' jobs are delivered first while one
    // tenant holds a disproportionate share of the workers); FIFO groups would run each tenant's
    // jobs one at a time (docs/async.md, "Fair picking")
    queue =
        Queue.Builder.create(this, "JobQueue")
            .fifo(false)
            .encryption(QueueEncryption.KMS)
            .encryptionMasterKey(storageKey)
            .enforceSsl(true)
            // at least the function timeout, so a running job is not delivered twice; the job's
            // lease (not the visibility) decides when a killed worker's job is taken over
            .visibilityTimeout(Duration.seconds(settings.workerTimeoutSeconds() + 60))
            .retentionPeriod(Duration.days(4))
            .deadLetterQueue(
                DeadLetterQueue.builder()
                    .queue(deadLetters)
                    .maxReceiveCount(settings.maxReceiveCount())
                    .build())
            .build();
    NagSuppressions.addResourceSuppressions(
        deadLetters,
        List.of(
            NagPackSuppression.builder()
                .id("AwsSolutions-SQS3")
                .reason("This queue is the dead-letter queue of the job queue.")
                .build()));
    principals =
        Secret.Builder.create(this, "Principals")
            .description(
                "lake principals JSON: token SHA-256 hashes, tenants and grants (never raw tokens)")
            .encryptionKey(storageKey)
            // an empty principal list admits nobody (fail closed) until the operator puts the
            // real file (docs/operations.md); the placeholder is not a secret
            .secretStringValue(SecretValue.unsafePlainText("{\"principals\":[]}"))
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();
    NagSuppressions.addResourceSuppressions(
        principals,
        List.of(
            NagPackSuppression.builder()
                .id("AwsSolutions-SMG4")
                .reason(
                    "The secret holds hashes of bearer tokens that clients own; a rotation Lambda"
                        + " cannot mint tokens for them. Operators rotate tokens by replacing"
                        + " hashes (docs/operations.md).")
                .build()));
  }

  /** An on-demand table with point-in-time recovery, encrypted with the storage key, retained. */
  private Table.Builder table(String id, String partitionKey) {
    return Table.Builder.create(this, id)
        .partitionKey(Attribute.builder().name(partitionKey).type(AttributeType.STRING).build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .pointInTimeRecoverySpecification(
            PointInTimeRecoverySpecification.builder().pointInTimeRecoveryEnabled(true).build())
        .encryption(TableEncryption.CUSTOMER_MANAGED)
        .encryptionKey(storageKey)
        .removalPolicy(RemovalPolicy.RETAIN);
  }

  /** A log group kept for a month and retained with the stack's data. */
  static LogGroup logGroup(Construct scope, String id) {
    return LogGroup.Builder.create(scope, id)
        .retention(RetentionDays.ONE_MONTH)
        .removalPolicy(RemovalPolicy.RETAIN)
        .build();
  }
}
