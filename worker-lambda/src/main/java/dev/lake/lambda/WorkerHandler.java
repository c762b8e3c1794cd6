package dev.lake.lambda;

import static java.util.Objects.requireNonNull;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.lake.app.WorkerMain;
import dev.lake.core.job.JobQueue;
import dev.lake.durable.AttemptReport;
import dev.lake.durable.JobProcessor;
import dev.lake.durable.Outcome;
import dev.lake.durable.WorkerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lambda entry point: an SQS batch of job ids in, partial batch failures out (the function's
 * event source mapping must enable {@code ReportBatchItemFailures}). Messages of terminal or
 * finished jobs succeed; a job another worker holds, or one handed back after a transient failure,
 * is reported as failed so SQS redelivers it after the visibility timeout; a job the execution
 * lease defers is sent again with a delay of {@link WorkerConfig#retryDelay()} and its message
 * succeeds. Each job's deadline stays {@link WorkerConfig#lambdaMargin()} below the invocation's
 * remaining time.
 */
public final class WorkerHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerHandler.class);

  private final JobProcessor processor;
  private final JobQueue queue;
  private final WorkerConfig config;
  private final Clock clock;
  private final EmfMetrics metrics;

  /**
   * For the Lambda runtime: the worker built once per container by the composition root from the
   * {@code LAKE_*} environment variables (the same settings as {@code bin/lake worker}).
   */
  public WorkerHandler() {
    this(
        Holder.PROCESS.processor(),
        Holder.PROCESS.queue(),
        Holder.PROCESS.config(),
        Clock.systemUTC());
  }

  /** {@code queue} is the job queue the event source reads: deferred jobs are sent to it again. */
  public WorkerHandler(JobProcessor processor, JobQueue queue, WorkerConfig config, Clock clock) {
    this(processor, queue, config, clock, EmfMetrics.stdout());
  }

  WorkerHandler(
      JobProcessor processor,
      JobQueue queue,
      WorkerConfig config,
      Clock clock,
      EmfMetrics metrics) {
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.processor = requireNonNull(processor, "processor is null");
    this.queue = requireNonNull(queue, "queue is null");
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    for (SQSEvent.SQSMessage message : event.getRecords()) {
      Optional<String> jobId = JobQueue.jobIdOf(message.getBody());
      if (jobId.isEmpty()) {
        LOG.warn("dropping message {}: not a lake job message", message.getMessageId());
        continue;
      }
      Duration remaining =
          context == null
              ? config.maxExecution()
              : Duration.ofMillis(context.getRemainingTimeInMillis()).minus(config.lambdaMargin());
      Instant started = clock.instant();
      Instant deadline = started.plus(remaining);
      Outcome outcome;
      AtomicReference<AttemptReport> attempt = new AtomicReference<>();
      try {
        outcome =
            remaining.isNegative()
                ? Outcome.RETRY
                : processor.process(jobId.get(), deadline, attempt::set);
      } catch (RuntimeException e) {
        LOG.warn("job {} could not be processed; SQS will redeliver", jobId.get(), e);
        outcome = Outcome.RETRY;
      }
      if (outcome == Outcome.DEFER) {
        // the execution lease is full: a new, delayed message, so that waiting never counts
        // toward the queue's redrive to the dead-letter queue; this one then succeeds
        try {
          queue.send(jobId.get(), JobQueue.tenantOf(message.getBody()), config.retryDelay());
        } catch (RuntimeException e) {
          LOG.warn("job {} could not be deferred; SQS will redeliver", jobId.get(), e);
          outcome = Outcome.RETRY;
        }
      }
      if (outcome == Outcome.RETRY) {
        processor.giveUpIfLast(queue, delivery(jobId.get(), message));
        failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
      }
      metrics.job(
          started,
          jobId.get(),
          outcome.name(),
          timings(message, started),
          Optional.ofNullable(attempt.get()));
    }
    return new SQSBatchResponse(failures);
  }

  /** The delivery as the job queue describes it (its receive count from SQS's attributes). */
  private static JobQueue.Message delivery(String jobId, SQSEvent.SQSMessage message) {
    String count =
        message.getAttributes() == null
            ? null
            : message.getAttributes().get("ApproximateReceiveCount");
    return new JobQueue.Message(
        jobId,
        JobQueue.tenantOf(message.getBody()),
        java.util.Objects.requireNonNullElse(message.getReceiptHandle(), ""),
        count != null && count.matches("[0-9]{1,9}") ? Math.max(1, Integer.parseInt(count)) : 1);
  }

  /**
   * Queue wait (SQS {@code SentTimestamp} to the start of processing) and the whole processing of
   * one message until now, in milliseconds.
   */
  private Map<String, Long> timings(SQSEvent.SQSMessage message, Instant started) {
    Map<String, Long> timings = new LinkedHashMap<>();
    String sent =
        message.getAttributes() == null ? null : message.getAttributes().get("SentTimestamp");
    if (sent != null && sent.matches("[0-9]{1,15}")) {
      timings.put("QueueWaitMillis", Math.max(0, started.toEpochMilli() - Long.parseLong(sent)));
    }
    timings.put("ProcessingMillis", Duration.between(started, clock.instant()).toMillis());
    return timings;
  }

  /** Lazily built, once per Lambda container (static state survives warm invocations). */
  private static final class Holder {
    static final WorkerMain.Process PROCESS = WorkerMain.fromEnvironment(System.getenv());
  }
}
