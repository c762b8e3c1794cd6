package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.JobQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link JobProcessor} from a {@link JobQueue} outside Lambda: the in-process consumer of
 * local mode (over {@code InProcessJobQueue}) and {@code bin/lake worker} (over SQS, built by
 * lake-runtime's {@code WorkerMain}). Each thread receives one message at a time, keeps it
 * invisible while its job runs, then acknowledges it, hands it back after {@link
 * WorkerConfig#retryDelay()}, or defers it by as much when the execution lease is full.
 */
public final class WorkerRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerRunner.class);

  private final JobQueue queue;
  private final JobProcessor processor;
  private final WorkerConfig config;
  private final Clock clock;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  public WorkerRunner(JobQueue queue, JobProcessor processor, WorkerConfig config, Clock clock) {
    this.queue = requireNonNull(queue, "queue is null");
    this.processor = requireNonNull(processor, "processor is null");
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** Starts {@code count} consumer threads. */
  public WorkerRunner start(int count) {
    if (count < 1 || count > 256) {
      throw new IllegalArgumentException("count must be between 1 and 256: " + count);
    }
    for (int i = 0; i < count; i++) {
      Thread t = new Thread(this::loop, "lake-worker-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return this;
  }

  /** Receives and processes at most one message; returns whether one was processed. */
  public boolean pollOnce(Duration wait) {
    List<JobQueue.Message> messages = queue.receive(1, wait);
    for (JobQueue.Message m : messages) {
      handle(m);
    }
    return !messages.isEmpty();
  }

  private void loop() {
    while (running) {
      try {
        pollOnce(Duration.ofSeconds(2));
      } catch (RuntimeException e) {
        LOG.warn("worker loop error; continuing", e);
        sleep(1_000);
      }
    }
  }

  private void handle(JobQueue.Message m) {
    // The delivery stays invisible for two leases at a time, set before the job is claimed and
    // renewed while it runs: a worker killed at any moment, even right after its claim, hands the
    // job over once its lease expired, not after the queue's default visibility (minutes).
    hideForTwoLeases(m);
    long period = config.renewEvery().toMillis();
    ScheduledFuture<?> keepHidden =
        processor.timers.scheduleAtFixedRate(
            () -> hideForTwoLeases(m), period, period, TimeUnit.MILLISECONDS);
    Outcome outcome;
    try {
      outcome = processor.process(m.jobId(), clock.instant().plus(config.maxExecution()));
    } catch (RuntimeException e) {
      LOG.warn("job {} could not be processed; it will be redelivered", m.jobId(), e);
      outcome = Outcome.RETRY;
    } finally {
      keepHidden.cancel(false);
    }
    if (outcome == Outcome.RETRY) {
      processor.giveUpIfLast(queue, m);
    }
    switch (outcome) {
      case DONE -> queue.ack(m);
      case DEFER -> queue.defer(m, config.retryDelay());
      case RETRY -> queue.nack(m, config.retryDelay());
    }
  }

  private void hideForTwoLeases(JobQueue.Message m) {
    try {
      queue.extendVisibility(m, config.lease().multipliedBy(2));
    } catch (RuntimeException e) {
      LOG.debug("cannot extend visibility of {}", m.jobId(), e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    running = false;
    for (Thread t : threads) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
