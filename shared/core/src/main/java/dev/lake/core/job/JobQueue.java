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
  void send(String jobId);

  /** Up to {@code max} messages, waiting at most {@code wait} for the first. */
  List<Message> receive(int max, Duration wait);

  /** Deletes a processed message. */
  void ack(Message message);

  /** Keeps a message invisible for {@code timeout} from now (a long-running job). */
  void extendVisibility(Message message, Duration timeout);

  /** Makes a message visible again after {@code delay} (zero = now) for another attempt. */
  void nack(Message message, Duration delay);

  /** The message body for {@code jobId}: {@code {"v":1,"jobId":"..."}}. */
  static String body(String jobId) {
    requireNonNull(jobId, "jobId is null");
    return "{\"v\":1,\"jobId\":\"" + jobId + "\"}";
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

  /** One delivery of a job id. */
  record Message(String jobId, String receipt, int receiveCount) {
    public Message {
      requireNonNull(jobId, "jobId is null");
      requireNonNull(receipt, "receipt is null");
      if (receiveCount < 1) {
        throw new IllegalArgumentException("receiveCount must be >= 1: " + receiveCount);
      }
    }
  }
}
