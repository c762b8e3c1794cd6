package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * At-least-once delivery of job ids to workers (SQS; an in-process queue in local mode). A received
 * message is invisible to other receivers for the visibility timeout and is redelivered unless
 * acknowledged, so a worker that dies hands its job to the next one. Consumers must be idempotent:
 * the job store, not the queue, decides who runs a job.
 */
public interface JobQueue {
  /** Enqueues a job of no known tenant (all such jobs share one place in the fair order). */
  default void send(String jobId) {
    send(jobId, "", Duration.ZERO);
  }

  /**
   * Enqueues {@code jobId} of {@code tenant}, receivable after {@code delay} (at most 15 min). The
   * in-process queue hands jobs out round-robin over tenants; SQS carries the tenant in the body.
   */
  void send(String jobId, String tenant, Duration delay);

  /**
   * Hands a job back for later without counting it as another receive: enqueues it again after
   * {@code delay}, then deletes this delivery (a crash in between leaves a duplicate, which the job
   * store makes harmless). For a job whose run was deferred (the execution lease is full), so that
   * a queue's redrive to a dead-letter queue counts failures, not waits.
   */
  default void defer(Message message, Duration delay) {
    send(message.jobId(), message.tenant(), delay);
    ack(message);
  }

  /** Up to {@code max} messages, waiting at most {@code wait} for the first. */
  List<Message> receive(int max, Duration wait);

  /** Deletes a processed message. */
  void ack(Message message);

  /** Keeps a message invisible for {@code timeout} from now (a long-running job). */
  void extendVisibility(Message message, Duration timeout);

  /** Makes a message visible again after {@code delay} (zero = now) for another attempt. */
  void nack(Message message, Duration delay);

  /**
   * How many deliveries of one message this queue makes before it gives the message up (SQS: the
   * redrive policy's {@code maxReceiveCount}, after which the message moves to the dead-letter
   * queue); empty when it never gives up. A worker whose last delivery of a job cannot finish it
   * ends the job itself, so a dead-lettered job never keeps its places until it expires.
   */
  default java.util.OptionalInt maxReceives() {
    return java.util.OptionalInt.empty();
  }

  /** Whether {@code message} is the last delivery {@link #maxReceives} allows. */
  default boolean lastDelivery(Message message) {
    java.util.OptionalInt max = maxReceives();
    return max.isPresent() && message.receiveCount() >= max.getAsInt();
  }

  /** The message body for {@code jobId}: {@code {"v":1,"jobId":"..."}}. */
  static String body(String jobId) {
    return body(jobId, "");
  }

  /**
   * The message body for {@code jobId} of {@code tenant}: {@code
   * {"v":1,"jobId":"...","tenant":"..."}}.
   */
  static String body(String jobId, String tenant) {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(tenant, "tenant is null");
    com.fasterxml.jackson.databind.node.ObjectNode n =
        dev.lake.core.Json.mapper().createObjectNode().put("v", 1).put("jobId", jobId);
    if (!tenant.isEmpty()) {
      n.put("tenant", tenant);
    }
    return n.toString();
  }

  /** The tenant a message body names, {@code ""} when none. */
  static String tenantOf(String body) {
    try {
      return dev.lake.core.Json.mapper().readTree(body).path("tenant").asText("");
    } catch (java.io.IOException | RuntimeException e) {
      return "";
    }
  }

  /** The job id of a message body, or empty when it is not a lake job message. */
  static java.util.Optional<String> jobIdOf(String body) {
    try {
      com.fasterxml.jackson.databind.JsonNode n = dev.lake.core.Json.mapper().readTree(body);
      String id = n.path("jobId").asText("");
      return n.path("v").asInt() == 1 && id.matches("[A-Za-z0-9_-]{1,64}")
          ? java.util.Optional.of(id)
          : java.util.Optional.empty();
    } catch (java.io.IOException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** One delivery of a job id ({@code tenant} is {@code ""} when the sender named none). */
  record Message(String jobId, String tenant, String receipt, int receiveCount) {
    public Message {
      requireNonNull(jobId, "jobId is null");
      requireNonNull(tenant, "tenant is null");
      requireNonNull(receipt, "receipt is null");
      if (receiveCount < 1) {
        throw new IllegalArgumentException("receiveCount must be >= 1: " + receiveCount);
      }
    }
  }
}
