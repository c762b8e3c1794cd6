package dev.lake.durable;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.ObjectStore;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.testing.TestArrow;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.core.ticket.TicketSealer;
import dev.lake.lance.LanceSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;

/**
 * The fixture of {@link DeliveryScenarios} and {@link FaultScenarios}: the ports under test (the
 * subclass's), a {@link DurableQueries} front-door side and workers over them, sharing one {@link
 * ResultLayout}, and the helpers the scenarios submit, process and inspect jobs with.
 */
public abstract class WorkerFixture {
  static final TableRef T = TableRef.parse("lake.sales.orders");
  static final Principal ALICE = Principal.of("acme", "alice", Set.of("lake.sales"));
  static final SnapshotSet SNAPSHOTS =
      new SnapshotSet(Map.of(T, new LanceSnapshot("/data/orders", "inc-1", 3)));
  static final AdmittedQuery QUERY =
      AdmittedQuery.of("SELECT * FROM lake.sales.orders", AdmittedQuery.Kind.SELECT, List.of(T));

  /** The ports under test, fresh per test. */
  public record Ports(JobStore jobs, JobQueue queue, ObjectStore objects, KeyService keys) {}

  protected abstract Ports ports();

  final Clock clock = Clock.systemUTC();
  // set per test, in setUp()
  BufferAllocator allocator;
  Fakes.Resolver resolver;
  List<JobProcessor> processors;
  public Ports ports;
  public Fakes.FailingObjectStore objects;
  DurableQueries durable;

  @AfterEach
  public void closeAll() {
    processors.forEach(JobProcessor::close);
    allocator.close();
  }

  /** Small parts, so that a few thousand rows make several; front door and workers share it. */
  static final ResultLayout LAYOUT =
      ResultLayout.defaults()
          .withBounds(
              new ResultConfig(1 << 30, 1_000, 1 << 20, 1_000, 1 << 20, Duration.ofHours(1)));

  public static WorkerConfig config(int maxAttempts, Duration maxExecution) {
    return WorkerConfigBuilder.builder()
        .lease(Duration.ofSeconds(2))
        .renewEvery(Duration.ofMillis(200))
        .maxExecution(maxExecution)
        .lambdaMargin(Duration.ofSeconds(1))
        .maxAttempts(maxAttempts)
        .retryDelay(Duration.ZERO)
        .build();
  }

  public void setUp() {
    allocator = new RootAllocator();
    resolver = new Fakes.Resolver();
    processors = new ArrayList<>();
    ports = ports();
    objects = new Fakes.FailingObjectStore(ports.objects());
    durable =
        new DurableQueries(
            ports.jobs(),
            ports.queue(),
            objects,
            new TicketSealer(ports.keys(), TicketConfig.defaults(), clock),
            new EnvelopeSealer(ports.keys()),
            DurableConfig.defaults(),
            LAYOUT,
            clock,
            Optional.empty());
  }

  public JobProcessor processor(String id, FakeEngine engine, WorkerConfig config) {
    JobProcessor p =
        new JobProcessor(
            ports.jobs(),
            objects,
            new EnvelopeSealer(ports.keys()),
            new Catalogs(List.of(resolver)),
            engine,
            allocator,
            config,
            LAYOUT,
            clock,
            id);
    processors.add(p);
    return p;
  }

  public JobStatus submit() {
    return submit(ALICE);
  }

  public Job job(JobStatus s) {
    return ports.jobs().find(s.jobId()).orElseThrow();
  }

  List<String> manifests() {
    return ports.objects().list("results/acme/").stream()
        .filter(k -> k.endsWith("/manifest.json"))
        .toList();
  }

  public Instant later() {
    return clock.instant().plusSeconds(60);
  }

  JobQueue.Message lastDelivery;

  /** Receives once; the delivery of {@code jobId}, if it was among them (kept in lastDelivery). */
  Optional<JobQueue.Message> receiveJob(String jobId) {
    for (JobQueue.Message m : ports.queue().receive(10, Duration.ofMillis(200))) {
      if (m.jobId().equals(jobId)) {
        lastDelivery = m;
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** Submits {@link #QUERY} as {@code principal}, with a fresh submission id. */
  public JobStatus submit(Principal principal) {
    // a fresh submission id: the AWS fixture shares one job table across tests
    return durable.submit(
        principal,
        QUERY,
        List.of(),
        SNAPSHOTS,
        TestArrow.SCHEMA,
        Optional.of(UUID.randomUUID().toString()),
        ResultFormat.ARROW);
  }
}
