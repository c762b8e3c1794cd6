package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.ObjectStore;
import dev.lake.core.QueryEngine;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.InProcessJobQueue;
import dev.lake.core.local.LocalObjectStore;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.core.ticket.TicketSealer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable tier of one front-door process: the {@link DurableQueries} service over a job store,
 * queue, object store and key ring, plus optional in-process workers running the same {@link
 * JobProcessor} as Lambda over the front door's own engine and catalogs. Closing stops the workers
 * (waiting briefly for running jobs) and everything it built; the components belong to the caller.
 */
public final class DurableTier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DurableTier.class);

  /**
   * What the tier uses of the query side: the key ring seals envelopes and tickets; catalogs,
   * engine and allocator run the in-process workers' jobs. They belong to the caller.
   */
  public record Inputs(
      KeyService keys, Catalogs catalogs, QueryEngine engine, BufferAllocator allocator) {
    public Inputs {
      requireNonNull(keys, "keys is null");
      requireNonNull(catalogs, "catalogs is null");
      requireNonNull(engine, "engine is null");
      requireNonNull(allocator, "allocator is null");
    }
  }

  /** Where jobs, messages, results and keys live. {@code owned} are closed with the tier. */
  public record Ports(
      JobStore jobs,
      JobQueue queue,
      ObjectStore objects,
      KeyService keys,
      List<AutoCloseable> owned) {
    public Ports {
      requireNonNull(jobs, "jobs is null");
      requireNonNull(queue, "queue is null");
      requireNonNull(objects, "objects is null");
      requireNonNull(keys, "keys is null");
      owned = List.copyOf(requireNonNull(owned, "owned is null"));
    }
  }

  private final DurableQueries queries;
  private final DurableTierConfig config;
  private final List<AutoCloseable> owned;

  private DurableTier(DurableQueries queries, DurableTierConfig config, List<AutoCloseable> owned) {
    this.queries = queries;
    this.config = config;
    this.owned = owned;
  }

  public DurableQueries queries() {
    return queries;
  }

  public DurableTierConfig config() {
    return config;
  }

  /**
   * Local mode under {@code dataDir}: {@code jobs/} (file job store), {@code results/} (object
   * store), an in-process queue and the components' key ring. On start every unfinished job is
   * enqueued again (the in-process queue does not survive a restart), and a timer sweeps expired
   * results and job records every {@link DurableTierConfig#sweepEvery()}.
   */
  public static DurableTier local(
      Path dataDir, Inputs components, DurableTierConfig config, Clock clock) {
    FileJobStore jobs = new FileJobStore(dataDir.resolve("jobs"));
    LocalObjectStore objects = new LocalObjectStore(dataDir.resolve("results"));
    InProcessJobQueue queue = new InProcessJobQueue(config.worker().lease().multipliedBy(2), clock);
    Ports ports = new Ports(jobs, queue, objects, components.keys(), List.of());
    DurableTier tier = start(ports, components, config, clock);
    int resent = 0;
    for (String id : jobs.ids()) {
      Optional<Job> unfinished = jobs.find(id).filter(j -> !j.state().terminal());
      if (unfinished.isPresent()) {
        queue.send(id, unfinished.get().tenant(), Duration.ZERO);
        resent++;
      }
    }
    if (resent > 0) {
      LOG.info("re-enqueued {} unfinished durable jobs", resent);
    }
    ResultSweeper sweeper = new ResultSweeper(objects, config.layout().prefix(), clock);
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lake-durable-sweep");
              t.setDaemon(true);
              return t;
            });
    long period = config.sweepEvery().toMillis();
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            int results = sweeper.sweep();
            int records = jobs.sweepExpired(clock.instant());
            if (results + records > 0) {
              LOG.info("swept {} expired results and {} expired job records", results, records);
            }
          } catch (RuntimeException e) {
            LOG.warn("durable sweep failed; retrying next period", e);
          }
        },
        period,
        period,
        TimeUnit.MILLISECONDS);
    tier.owned.add(0, timer::shutdownNow);
    return tier;
  }

  /** The tier over any ports, with {@link DurableTierConfig#workers()} in-process workers. */
  public static DurableTier start(
      Ports ports, Inputs components, DurableTierConfig config, Clock clock) {
    requireNonNull(ports, "ports is null");
    requireNonNull(components, "components is null");
    requireNonNull(config, "config is null");
    requireNonNull(clock, "clock is null");
    // the tickets of the durable tier use the default audience, like statement tickets
    TicketSealer tickets = new TicketSealer(ports.keys(), TicketConfig.defaults(), clock);
    DurableQueries queries =
        new DurableQueries(
            ports.jobs(),
            ports.queue(),
            ports.objects(),
            tickets,
            new EnvelopeSealer(ports.keys()),
            config.durable(),
            config.layout(),
            clock,
            components.engine().parquet());
    List<AutoCloseable> owned = new ArrayList<>(ports.owned());
    if (config.workers() > 0) {
      JobProcessor processor =
          processor(
              ports.jobs(),
              ports.objects(),
              components,
              config.worker(),
              config.layout(),
              clock,
              "frontdoor-" + UUID.randomUUID().toString().substring(0, 8),
              ports.queue());
      owned.add(processor);
      WorkerRunner runner =
          new WorkerRunner(ports.queue(), processor, config.worker(), clock)
              .start(config.workers());
      owned.add(runner);
    }
    return new DurableTier(queries, config, owned);
  }

  /**
   * The one construction of a {@link JobProcessor}, for every worker (in-process, {@code bin/lake
   * worker}, Lambda): it claims jobs from {@code jobs}, runs them on the query side's catalogs and
   * engine, opens envelopes with its key ring and writes results to {@code results} where {@code
   * layout} says (the front door reads them with the same layout); it sends the child jobs of a
   * fanned-out statement to {@code queue}.
   */
  public static JobProcessor processor(
      JobStore jobs,
      ObjectStore results,
      Inputs query,
      WorkerConfig worker,
      ResultLayout layout,
      Clock clock,
      String workerId,
      JobQueue queue) {
    return new JobProcessor(
        jobs,
        results,
        new EnvelopeSealer(query.keys()),
        query.catalogs(),
        query.engine(),
        query.allocator(),
        worker,
        layout,
        clock,
        workerId,
        requireNonNull(queue, "queue is null"));
  }

  @Override
  public void close() {
    // newest first: workers stop taking jobs before their processor and timers go
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).close();
      } catch (Exception e) {
        LOG.warn("error while closing the durable tier", e);
      }
    }
  }
}
