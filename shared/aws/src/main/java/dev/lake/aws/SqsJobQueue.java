package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
import dev.lake.core.job.JobQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@link JobQueue} on one SQS queue. Bodies are {@link JobQueue#body}; messages that are not lake
 * job messages are deleted on receipt (they could never succeed). Redrive to a dead-letter queue
 * after {@code maxReceiveCount} is configured on the queue, not here; {@link #maxReceives} reads it
 * from the queue's redrive policy (once), so workers know a message's last delivery. A deferred job
 * ({@link JobQueue#defer}) is a new, delayed message, so waiting for the execution lease never
 * counts toward it. Every message of a tenant carries {@code MessageGroupId} = the tenant, which
 * makes a standard queue an SQS <em>fair queue</em>: when one tenant holds a disproportionate share
 * of the in-flight messages or of the consumers' time, SQS hands out the other tenants' messages
 * first, across every worker of the fleet (docs/async.md, "Fair picking"). The per-tenant execution
 * lease still caps how many of a tenant's jobs run.
 */
public final class SqsJobQueue implements JobQueue {
  private final SqsClient sqs;
  private final String queueUrl;

  /** The redrive policy's maxReceiveCount, read once: a queue's policy is set at deployment. */
  private volatile OptionalInt maxReceives;

  public SqsJobQueue(SqsClient sqs, String queueUrl) {
    this.sqs = requireNonNull(sqs, "sqs is null");
    this.queueUrl = requireNonNull(queueUrl, "queueUrl is null");
  }

  @Override
  public void send(String jobId, String tenant, Duration delay) {
    // SQS delays a message by at most 15 minutes
    int seconds = (int) Math.min(900, Math.max(0, (delay.toMillis() + 999) / 1000));
    try {
      // a job of no known tenant has no group: SQS treats it as a tenant of its own
      String group = tenant.isEmpty() ? null : tenant;
      sqs.sendMessage(
          b ->
              b.queueUrl(queueUrl)
                  .messageBody(JobQueue.body(jobId, tenant))
                  .messageGroupId(group)
                  .delaySeconds(seconds));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<JobQueue.Message> receive(int max, Duration wait) {
    if (max < 1 || max > 10) {
      throw new IllegalArgumentException("max must be between 1 and 10: " + max);
    }
    int waitSeconds = (int) Math.min(20, Math.max(0, (wait.toMillis() + 999) / 1000));
    List<software.amazon.awssdk.services.sqs.model.Message> messages;
    try {
      messages =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(queueUrl)
                          .maxNumberOfMessages(max)
                          .waitTimeSeconds(waitSeconds)
                          .messageSystemAttributeNames(
                              MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT,
                              MessageSystemAttributeName.MESSAGE_GROUP_ID))
              .messages();
    } catch (SdkException e) {
      throw unavailable(e);
    }
    List<JobQueue.Message> out = new ArrayList<>();
    for (software.amazon.awssdk.services.sqs.model.Message m : messages) {
      Optional<String> jobId = JobQueue.jobIdOf(m.body());
      if (jobId.isEmpty()) {
        delete(m.receiptHandle());
        continue;
      }
      int count =
          Integer.parseInt(
              m.attributes()
                  .getOrDefault(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1"));
      // the body names the tenant; a message from a sender that put it only in the group (none
      // of lake's) still keeps its tenant
      String tenant = JobQueue.tenantOf(m.body());
      if (tenant.isEmpty()) {
        tenant = m.attributes().getOrDefault(MessageSystemAttributeName.MESSAGE_GROUP_ID, "");
      }
      out.add(new JobQueue.Message(jobId.get(), tenant, m.receiptHandle(), Math.max(1, count)));
    }
    return out;
  }

  @Override
  public void ack(JobQueue.Message message) {
    delete(message.receipt());
  }

  @Override
  public void extendVisibility(JobQueue.Message message, Duration timeout) {
    changeVisibility(message, timeout);
  }

  @Override
  public void nack(JobQueue.Message message, Duration delay) {
    changeVisibility(message, delay);
  }

  @Override
  public OptionalInt maxReceives() {
    OptionalInt known = maxReceives;
    if (known == null) {
      known = redriveMaxReceives();
      maxReceives = known;
    }
    return known;
  }

  /** {@code maxReceiveCount} of the queue's {@code RedrivePolicy}, or empty without one. */
  private OptionalInt redriveMaxReceives() {
    String policy;
    try {
      policy =
          sqs.getQueueAttributes(
                  b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.REDRIVE_POLICY))
              .attributes()
              .get(QueueAttributeName.REDRIVE_POLICY);
    } catch (SdkException e) {
      throw unavailable(e);
    }
    if (policy == null || policy.isBlank()) {
      return OptionalInt.empty();
    }
    try {
      // maxReceiveCount is a number or, as some SDKs write it, a string holding one
      int max = Integer.parseInt(Json.mapper().readTree(policy).path("maxReceiveCount").asText());
      return max > 0 ? OptionalInt.of(max) : OptionalInt.empty();
    } catch (IOException | NumberFormatException e) {
      return OptionalInt.empty(); // an unreadable policy: never give a job up early
    }
  }

  private void changeVisibility(JobQueue.Message message, Duration timeout) {
    int seconds = (int) Math.min(43_200, Math.max(0, timeout.toSeconds()));
    try {
      sqs.changeMessageVisibility(
          b -> b.queueUrl(queueUrl).receiptHandle(message.receipt()).visibilityTimeout(seconds));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  private void delete(String receipt) {
    try {
      sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(receipt));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  private static LakeException unavailable(SdkException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job queue is unavailable; retry later", e);
  }
}
